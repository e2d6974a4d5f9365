// CPU time used by processes, read from /proc (Linux). Benchmarks report CPU per request next to req/s:
// on a machine shared with other work, throughput moves with everyone's load, CPU per request much less.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

/** CPU milliseconds (user + system, all threads) of each process; processes that are gone are left out. */
export function cpuMsByPid(pids: number[]): Map<number, number> {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  const result = new Map<number, number>();
  for (const pid of pids) {
    const path = `/proc/${pid}/stat`;
    if (!existsSync(path)) continue;
    try {
      // Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
      const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
      result.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond);
    } catch {
      // the process ended between the check and the read
    }
  }
  return result;
}

/** CPU milliseconds the processes used between two readings (a process that appeared counts from zero). */
export function cpuMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

export const canReadProcessCpu = () => existsSync("/proc/self/stat");
