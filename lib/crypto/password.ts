// Dashboard passwords: scrypt (a deliberately slow, memory-hard hash) with a per-password salt, at current
// guidance (N=2^17, r=8, p=1: 128 MiB and about a second of CPU per hash; PASSWORD_SCRYPT_N). The parameters are part of the
// stored string (`scrypt$N$r$p$salt$key`), so hashes made with older ones still verify; sign-in rehashes
// them (needsRehash). Every hash runs through one gate per process: at most PASSWORD_HASH_CONCURRENCY at
// once and PASSWORD_HASH_QUEUE waiting; past that, PasswordHashBusyError at once (answered 503), so a flood
// of sign-ins cannot queue unbounded CPU and memory work.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

/** Today's parameters for new hashes: N from PASSWORD_SCRYPT_N (2^17 unless a test server lowers it). */
function scryptParams() {
  return { N: env.PASSWORD_SCRYPT_N, r: 8, p: 1, keyLength: 64 };
}

/** Stored parameters outside these bounds are refused rather than run (a hash string is data). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

export class PasswordHashBusyError extends Error {
  constructor() {
    super("password hashing is at capacity");
  }
}

/** scrypt needs 128 * N * r bytes; Node refuses more than `maxmem` (32 MiB by default). */
const maxmemFor = (N: number, r: number) => 128 * N * r + 16 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

interface Gate {
  running: number;
  waiting: (() => void)[];
}

/** Runs one hash within the process's limits, or throws PasswordHashBusyError without waiting. */
async function gated<T>(work: () => Promise<T>): Promise<T> {
  const gate = globalSingleton<Gate>("crypto.password-hash-gate", () => ({ running: 0, waiting: [] }));
  if (gate.running < env.PASSWORD_HASH_CONCURRENCY) gate.running++;
  else if (gate.waiting.length < env.PASSWORD_HASH_QUEUE) await new Promise<void>((resolve) => gate.waiting.push(resolve));
  else throw new PasswordHashBusyError();
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, so `running` never drops below the queue's needs.
    const next = gate.waiting.shift();
    if (next) next();
    else gate.running--;
  }
}

function hashNow(password: string): Promise<string> {
  const { N, r, p, keyLength } = scryptParams();
  const salt = randomBytes(16);
  return scrypt(password, salt, keyLength, { N, r, p, maxmem: maxmemFor(N, r) }).then(
    (key) => `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`,
  );
}

export function hashPassword(password: string): Promise<string> {
  return gated(() => hashNow(password));
}

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parseStored(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || !salt || !key) return null;
  if (!Number.isInteger(params.N) || params.N < 2 || params.N > MAX_N || (params.N & (params.N - 1)) !== 0) return null;
  if (!Number.isInteger(params.r) || params.r < 1 || params.r > MAX_R || !Number.isInteger(params.p) || params.p < 1 || params.p > MAX_P)
    return null;
  return { ...params, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const hash = parseStored(stored);
  if (!hash || hash.key.length === 0) return false;
  const actual = await gated(() =>
    scrypt(password, hash.salt, hash.key.length, { N: hash.N, r: hash.r, p: hash.p, maxmem: maxmemFor(hash.N, hash.r) }),
  );
  return timingSafeEqual(actual, hash.key);
}

/** True when a stored hash was made with other parameters than today's (sign-in then stores a new one). */
export function needsRehash(stored: string): boolean {
  const hash = parseStored(stored);
  const { N, r, p, keyLength } = scryptParams();
  return !hash || hash.N !== N || hash.r !== r || hash.p !== p || hash.key.length !== keyLength;
}

/** A hash with today's parameters to verify against for unknown emails (made once, outside the gate). */
export function dummyPasswordHash(): Promise<string> {
  return globalSingleton("crypto.dummy-password-hash", () => hashNow("not-a-real-password"));
}
