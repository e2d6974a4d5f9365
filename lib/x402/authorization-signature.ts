// Whether `authorization.from` signed an EIP-3009 TransferWithAuthorization (EIP-712) on a token's domain: the check
// of every x402 `exact` EVM payment (check-payment.ts). Written out instead of viem's verifyTypedData, which took
// 5.6 ms of CPU per paid request on the bench machine (issue 38, docs/BENCHMARKS.md): the type is fixed, so its digest
// is seven 32-byte words hashed (the domain separator once per token), and the signer's public key is recovered by
// libsecp256k1 (the `secp256k1` package's prebuilt binding, about 0.1 ms against @noble/curves' 3.5 ms), or by
// viem's recovery (@noble/curves) where that binding does not load. tests/unit/authorization-signature.test.ts
// proves the digest and the answers equal viem's.
import { keccak256, recoverPublicKey, stringToBytes } from "viem";

export interface TransferAuthorization {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface TokenDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

const hash = (bytes: Uint8Array) => keccak256(bytes, "bytes");
const DOMAIN_TYPE = hash(stringToBytes("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"));
const TRANSFER_TYPE = hash(
  stringToBytes("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"),
);
const MAX_UINT256 = (1n << 256n) - 1n;

/** One ABI word: a uint256 (refused out of range, as the ABI encoding refuses it) or 20/32 bytes of hex, left-padded. */
function word(value: bigint | string): Buffer {
  if (typeof value === "bigint") {
    if (value < 0n || value > MAX_UINT256) throw new RangeError("uint256 out of range");
    return Buffer.from(value.toString(16).padStart(64, "0"), "hex");
  }
  return Buffer.from(value.slice(2).padStart(64, "0"), "hex");
}

const separators = new Map<string, Uint8Array>();
const MAX_SEPARATORS = 64;

/** The EIP-712 domain separator of a token (a handful per deployment: cached). */
function domainSeparator(domain: TokenDomain): Uint8Array {
  const key = `${domain.chainId}:${domain.verifyingContract.toLowerCase()}:${domain.name}:${domain.version}`;
  let separator = separators.get(key);
  if (!separator) {
    const fields = [DOMAIN_TYPE, hash(stringToBytes(domain.name)), hash(stringToBytes(domain.version))];
    separator = hash(Buffer.concat([...fields, word(BigInt(domain.chainId)), word(domain.verifyingContract)]));
    if (separators.size >= MAX_SEPARATORS) separators.clear();
    separators.set(key, separator);
  }
  return separator;
}

/** The EIP-712 digest the payer signed (hashTypedData of TransferWithAuthorization on the token's domain). */
export function transferAuthorizationDigest(domain: TokenDomain, authorization: TransferAuthorization): Uint8Array {
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  const struct = [TRANSFER_TYPE, word(from), word(to), word(BigInt(value)), word(BigInt(validAfter)), word(BigInt(validBefore))];
  const structHash = hash(Buffer.concat([...struct, word(nonce)]));
  return hash(Buffer.concat([Buffer.from([0x19, 0x01]), domainSeparator(domain), structHash]));
}

/** libsecp256k1's recovery (the `secp256k1` package's binding, without its pure-JS fallback), or null off its platforms. */
type Recover = (signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: false) => Uint8Array;
let nativeRecover: Promise<Recover | null> | undefined;

function libsecp256k1(): Promise<Recover | null> {
  // A CommonJS module: its exports are the import's default (named ones too where a bundler makes them).
  nativeRecover ??= import("secp256k1/bindings.js").then(
    (binding: { default?: { ecdsaRecover?: Recover }; ecdsaRecover?: Recover }) =>
      binding.default?.ecdsaRecover ?? binding.ecdsaRecover ?? null,
    () => null,
  );
  return nativeRecover;
}

/** The uncompressed public key (65 bytes) that made a 65-byte signature (r, s, v of 27/28 or 0/1) of `digest`. */
async function recoverKey(digest: Uint8Array, hex: string): Promise<Uint8Array> {
  if (!/^0x[0-9a-fA-F]{130}$/.test(hex)) throw new Error("invalid signature length");
  const signature = Buffer.from(hex.slice(2), "hex");
  const v = signature[64];
  const recoveryId = v === 27 || v === 28 ? v - 27 : v;
  if (recoveryId !== 0 && recoveryId !== 1) throw new Error("invalid recovery byte");
  const recover = await libsecp256k1();
  if (recover) return recover(signature.subarray(0, 64), recoveryId, digest, false);
  return Buffer.from((await recoverPublicKey({ hash: digest, signature: hex as `0x${string}` })).slice(2), "hex");
}

/**
 * Whether `authorization.from` signed the authorization on the token's domain. False for a signature that is none (bad
 * length, recovery byte, r or s out of range) or made by another key.
 */
export async function signedByFrom(domain: TokenDomain, authorization: TransferAuthorization, signature: string): Promise<boolean> {
  try {
    const digest = transferAuthorizationDigest(domain, authorization);
    const publicKey = await recoverKey(digest, signature);
    const address = Buffer.from(hash(publicKey.subarray(1)))
      .subarray(12)
      .toString("hex");
    return `0x${address}` === authorization.from.toLowerCase();
  } catch {
    return false;
  }
}
