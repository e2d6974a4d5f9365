// Is a meter past due? Post-paid calls run BEFORE they are metered, so a past-due meter (it refuses usage
// until the payer settles) has to be known before the handler runs, or the call runs unbilled. Reading the
// meter on every call would double the requests of the post-paid hot path, so this remembers a meter in
// good standing for ttlMs, re-reads a meter last seen past due on every call (a settled meter serves at
// once), and reads a meter once however many calls ask at the same moment.
import type { PastDueRefusal } from "./meter-refusals";

type Standing = PastDueRefusal | null;
type Entry = { standing: Standing; readAt: number } | { pending: Promise<Standing> };

export interface MeterStandingOptions {
  /** Reads the meter now: its past-due refusal, or null when it takes usage. */
  read: (meterId: string) => Promise<Standing>;
  /** How long a meter in good standing is trusted without a read; 0 reads before every call. */
  ttlMs: number;
  /** Meters remembered at most (the least recently read are forgotten first). */
  maxEntries?: number;
  now?: () => number;
}

export interface MeterStanding {
  pastDue(meterId: string): Promise<Standing>;
  /** The service refused usage as past due: the next calls read the meter before they run. */
  markPastDue(meterId: string, refusal: PastDueRefusal): void;
}

export function meterStanding({ read, ttlMs, maxEntries = 10_000, now = Date.now }: MeterStandingOptions): MeterStanding {
  const entries = new Map<string, Entry>();

  const remember = (meterId: string, entry: Entry) => {
    entries.delete(meterId); // re-inserted last: Map order is the eviction order
    entries.set(meterId, entry);
    if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
  };

  return {
    pastDue(meterId) {
      const known = entries.get(meterId);
      if (known && "pending" in known) return known.pending;
      if (known && known.standing === null && now() - known.readAt < ttlMs) return Promise.resolve(null);
      const entry: Entry = {
        pending: read(meterId).then(
          (standing) => {
            // A refusal marked while this read was in flight is newer than what the read saw.
            if (entries.get(meterId) === entry) remember(meterId, { standing, readAt: now() });
            return standing;
          },
          (err: unknown) => {
            if (entries.get(meterId) === entry) entries.delete(meterId);
            throw err;
          },
        ),
      };
      remember(meterId, entry);
      return entry.pending;
    },
    markPastDue(meterId, refusal) {
      remember(meterId, { standing: refusal, readAt: now() });
    },
  };
}
