// Per-IP bucket names: IPv4 as it is, IPv6 by its /64, IPv4-mapped IPv6 as the IPv4 (issue 14, items 5 and 12).
import { describe, expect, it } from "vitest";
import { ipBucketKey } from "../../lib/http/client-ip";

describe("ipBucketKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::1]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::", "0:0:0:0::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    ["::ffff:c633:6404", "198.51.100.4"],
    ["64:ff9b::198.51.100.4", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("%s -> %s", (address, key) => {
    expect(ipBucketKey(address)).toBe(key);
  });

  it("two addresses of one /64 share a bucket; the next /64 does not", () => {
    expect(ipBucketKey("2001:db8:aa:bb:1::1")).toBe(ipBucketKey("2001:db8:aa:bb:ffff:ffff:ffff:fffe"));
    expect(ipBucketKey("2001:db8:aa:bc::1")).not.toBe(ipBucketKey("2001:db8:aa:bb::1"));
  });
});
