// Foreign agent directories, cached in PostgreSQL for every process (agent_directories; docs/cards.md "Foreign
// agent operators"). A key is looked up in the stored directory while it is fresh (its Cache-Control max-age);
// a stale or missing one is fetched. An unknown keyid fetches the directory again (a rotated key), but never
// sooner than AGENT_DIRECTORY_REFETCH_SECONDS after the last fetch, so requests naming made-up keyids cannot make
// a fetch each. A failed fetch is remembered as long (a negative entry) and fresh keys survive a failed refetch.
// The cache is written outside the caller's transaction (a refusal rolls that back, the cache must stay), and one
// fetch per origin is in flight in a process at a time.
import { getDb } from "../db";
import { env } from "../env";
import { fetchDirectory, type FetchedDirectory } from "./foreign-directory";
import { verificationKeyOf, type VerificationKey } from "./verification-keys";

/** Directories kept at most; the ones fetched longest ago go first. */
export const MAX_CACHED_DIRECTORIES = 1000;

export type DirectoryLookup = { ok: true; key: VerificationKey } | { ok: false; reason: "directory_unavailable" | "unknown_key" };

interface Row {
  keys: { jwk: Record<string, string> }[];
  failure: string | null;
  fresh: boolean;
  mayRefetch: boolean;
}

const inFlight = new Map<string, Promise<FetchedDirectory>>();

async function readRow(origin: string): Promise<Row | null> {
  const rows = await getDb().$queryRaw<Row[]>`
    SELECT keys, failure, fresh_until > now() AS fresh, refetch_after <= now() AS "mayRefetch"
      FROM agent_directories WHERE origin = ${origin}`;
  return rows[0] ?? null;
}

function keyIn(row: Pick<Row, "keys">, keyid: string): VerificationKey | null {
  for (const entry of row.keys) {
    const key = verificationKeyOf(entry.jwk);
    if (key?.keyid === keyid) return key;
  }
  return null;
}

async function store(origin: string, fetched: FetchedDirectory, keepFresh: boolean): Promise<void> {
  const interval = env.AGENT_DIRECTORY_REFETCH_SECONDS;
  const db = getDb();
  if (!fetched.ok && keepFresh) {
    await db.$executeRaw`UPDATE agent_directories SET refetch_after = now() + make_interval(secs => ${interval}) WHERE origin = ${origin}`;
    return;
  }
  const keys = fetched.ok ? fetched.keys.map((k) => ({ keyid: k.keyid, algorithm: k.algorithm, jwk: k.jwk })) : [];
  const freshFor = fetched.ok ? Math.max(fetched.maxAge, interval) : interval;
  const inserted = await db.$queryRaw<{ inserted: boolean }[]>`
    INSERT INTO agent_directories (origin, keys, failure, fetched_at, fresh_until, refetch_after)
    VALUES (${origin}, ${JSON.stringify(keys)}::jsonb, ${fetched.ok ? null : fetched.failure}, now(),
            now() + make_interval(secs => ${freshFor}), now() + make_interval(secs => ${interval}))
    ON CONFLICT (origin) DO UPDATE SET keys = EXCLUDED.keys, failure = EXCLUDED.failure, fetched_at = EXCLUDED.fetched_at,
      fresh_until = EXCLUDED.fresh_until, refetch_after = EXCLUDED.refetch_after
    RETURNING (xmax = 0) AS inserted`;
  if (inserted[0]?.inserted) {
    await db.$executeRaw`
      DELETE FROM agent_directories WHERE origin IN (
        SELECT origin FROM agent_directories ORDER BY fetched_at DESC OFFSET ${MAX_CACHED_DIRECTORIES})`;
  }
}

/** Fetches and stores the origin's directory, one fetch per origin in flight in this process. */
async function refetch(origin: string, keepFresh: boolean): Promise<Pick<Row, "keys"> | null> {
  let pending = inFlight.get(origin);
  if (!pending) {
    pending = fetchDirectory(origin).then(async (fetched) => {
      await store(origin, fetched, keepFresh);
      return fetched;
    });
    inFlight.set(origin, pending);
    void pending.finally(() => inFlight.delete(origin)).catch(() => undefined);
  }
  const fetched = await pending;
  return fetched.ok ? { keys: fetched.keys.map((k) => ({ jwk: k.jwk })) } : null;
}

/** The operator's key with this keyid, from the cache or a fetch of its directory. */
export async function foreignKey(origin: string, keyid: string): Promise<DirectoryLookup> {
  const row = await readRow(origin);
  if (row?.fresh) {
    if (row.failure) return { ok: false, reason: "directory_unavailable" };
    const key = keyIn(row, keyid);
    if (key) return { ok: true, key };
    if (!row.mayRefetch) return { ok: false, reason: "unknown_key" };
  } else if (row && !row.mayRefetch) {
    // Stale, but fetched too recently to fetch again (a max-age shorter than the refetch interval).
    const key = row.failure ? null : keyIn(row, keyid);
    return key ? { ok: true, key } : { ok: false, reason: row.failure ? "directory_unavailable" : "unknown_key" };
  }
  const fetched = await refetch(origin, row?.fresh === true && !row.failure);
  if (!fetched) return { ok: false, reason: row?.fresh ? "unknown_key" : "directory_unavailable" };
  const key = keyIn(fetched, keyid);
  return key ? { ok: true, key } : { ok: false, reason: "unknown_key" };
}
