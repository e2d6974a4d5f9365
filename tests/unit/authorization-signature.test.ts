// The hand-written EIP-712 check of x402's TransferWithAuthorization (lib/x402/authorization-signature.ts) against
// viem's: the same digest for any authorization and domain, the same answer for good, forged and malformed signatures.
import { randomBytes } from "node:crypto";
import { authorizationTypes } from "@x402/evm";
import { hashTypedData, toHex, verifyTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { signedByFrom, transferAuthorizationDigest, type TransferAuthorization } from "@/lib/x402/authorization-signature";

const types = authorizationTypes; // @x402/evm's own EIP-712 type
const domains = [
  { name: "USDC", version: "2", chainId: 84532, verifyingContract: "0x036CbD53842c5426634e7929541eC2318f3dCF7e" },
  { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
  { name: "Bench Token ü", version: "1", chainId: 31337, verifyingContract: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
];
const account = privateKeyToAccount(generatePrivateKey());

function authorizationFor(from: string, big = false): TransferAuthorization {
  return {
    from,
    to: toHex(randomBytes(20)),
    value: big ? ((1n << 256n) - 1n).toString() : String(10_000 * (1 + randomBytes(1)[0])),
    validAfter: "0",
    validBefore: String(Math.floor(Date.now() / 1000) + 300),
    nonce: toHex(randomBytes(32)),
  };
}

const typed = (domain: (typeof domains)[number], a: TransferAuthorization) => ({
  domain: { ...domain, verifyingContract: domain.verifyingContract as `0x${string}` },
  types,
  primaryType: "TransferWithAuthorization" as const,
  message: {
    from: a.from as `0x${string}`,
    to: a.to as `0x${string}`,
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
    nonce: a.nonce as `0x${string}`,
  },
});

describe("TransferWithAuthorization signatures", () => {
  it("hashes as viem's hashTypedData does, on every domain and at uint256's bounds", () => {
    for (const domain of domains)
      for (const big of [false, true]) {
        const a = authorizationFor(account.address, big);
        expect(toHex(transferAuthorizationDigest(domain, a))).toBe(hashTypedData(typed(domain, a)));
      }
  });

  it("answers as viem's verifyTypedData for good, forged and malformed signatures", async () => {
    const domain = domains[0];
    const a = authorizationFor(account.address);
    const good = await account.signTypedData(typed(domain, a));
    const other = await privateKeyToAccount(generatePrivateKey()).signTypedData(typed(domain, a));
    const v01 = `${good.slice(0, 130)}${(parseInt(good.slice(130), 16) - 27).toString(16).padStart(2, "0")}`;
    const flipped = `${good.slice(0, 10)}${good[10] === "0" ? "1" : "0"}${good.slice(11)}`;
    const candidates = [
      good,
      good.toUpperCase().replace("0X", "0x"),
      v01,
      other,
      flipped,
      `${good.slice(0, 130)}1d`,

      "0x",
      `0x${"00".repeat(65)}`,
      `0x${"ff".repeat(65)}`,
    ];
    for (const signature of candidates) {
      const viem = await verifyTypedData({ address: account.address, ...typed(domain, a), signature: signature as `0x${string}` }).catch(
        () => false,
      );
      expect(await signedByFrom(domain, a, signature), signature).toBe(viem);
    }
    expect(await signedByFrom(domain, a, good)).toBe(true);
    // Stricter than viem: an odd number of hex digits is no signature (viem reads 0x + 129 digits as 65 bytes).
    expect(await signedByFrom(domain, a, good.slice(0, 131))).toBe(false);
    expect(await signedByFrom(domains[1], a, good)).toBe(false); // another token's domain
    expect(await signedByFrom(domain, { ...a, value: String(Number(a.value) + 10_000) }, good)).toBe(false);
    expect(await signedByFrom(domain, { ...a, value: (1n << 256n).toString() }, good)).toBe(false); // out of uint256
  });
});
