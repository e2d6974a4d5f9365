// Preloaded into a test server (`node --import`): a name listed in the JSON file DNS_STUB_FILE resolves to the
// address written there at the moment of each lookup, so a test can re-point a name between two lookups (DNS
// rebinding: public when a URL is checked, private when it is connected to); every other name resolves as usual.
import dns from "node:dns";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

function stubbed(hostname) {
  try {
    const address = JSON.parse(fs.readFileSync(process.env.DNS_STUB_FILE, "utf8"))[hostname];
    return address ? { address, family: address.includes(":") ? 6 : 4 } : null;
  } catch {
    return null;
  }
}

const lookup = dns.lookup;
dns.lookup = function stubLookup(hostname, options, callback) {
  if (typeof options === "function") [callback, options] = [options, {}];
  const entry = stubbed(hostname);
  if (!entry) return lookup.call(dns, hostname, options, callback);
  const all = typeof options === "object" && options !== null && options.all;
  process.nextTick(() => (all ? callback(null, [entry]) : callback(null, entry.address, entry.family)));
};

const promisesLookup = dns.promises.lookup;
dns.promises.lookup = async function stubPromisesLookup(hostname, options) {
  const entry = stubbed(hostname);
  if (!entry) return promisesLookup.call(dns.promises, hostname, options);
  return typeof options === "object" && options !== null && options.all ? [entry] : entry;
};

syncBuiltinESMExports();
