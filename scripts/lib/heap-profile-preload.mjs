// Loaded into a benchmark's server (`node --import` this file; bench-soak.ts's SOAK_HEAP_PROFILE): a sampling heap
// profile of what survives scavenges. The first SIGUSR2 starts V8's sampling heap profiler, keeping the samples of
// objects a mark-compact frees but dropping those a scavenge frees, so the profile holds what was promoted to the
// old generation; the second runs one scavenge (so that what died young since the last one leaves the profile: send
// it once the load has ended), writes the profile (a .heapprofile, Chrome DevTools' format) to HEAP_PROFILE_FILE and
// stops. HEAP_PROFILE_INTERVAL: bytes between samples (default 16384).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

const file = process.env.HEAP_PROFILE_FILE;
const samplingInterval = Number(process.env.HEAP_PROFILE_INTERVAL ?? 16384);
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc"); // V8's gc(), in this file only: the server's global scope does not get it
const session = new Session();
session.connect();
const post = (method, params) =>
  new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));

let sampling = false;
process.on("SIGUSR2", async () => {
  try {
    if (!sampling) {
      sampling = true;
      await post("HeapProfiler.startSampling", { samplingInterval, includeObjectsCollectedByMajorGC: true });
      console.error("heap profile: sampling");
    } else {
      gc({ type: "minor" });
      const { profile } = await post("HeapProfiler.stopSampling");
      writeFileSync(file, JSON.stringify(profile));
      console.error(`heap profile: written to ${file}`);
    }
  } catch (err) {
    console.error(`heap profile: ${err}`);
  }
});
