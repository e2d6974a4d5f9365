// The load loop the call benchmarks share (bench:mcp, bench:paywall, bench:x402): `concurrency` workers
// call one function back to back for some seconds, each call timed; rounds merged into one table row.
import os from "node:os";
import { percentile } from "./bench-setup";

export interface LoopRun {
  /** Each call's duration, ms. */
  times: number[];
  seconds: number;
  /** CPU ms over the run's calls by part (a process, as a CpuMeter names it), when oneCallerRuns had a meter. */
  cpuMs?: Map<string, number>;
}

/** CPU ms so far by part (a process); a part missing from an earlier reading counts from zero, one gone is left out. */
export type CpuMeter = () => Promise<Map<string, number>>;

export async function timedLoop(seconds: number, concurrency: number, call: (worker: number) => Promise<void>): Promise<LoopRun> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        await call(worker);
        times.push(performance.now() - t0);
      }
    }),
  );
  return { times, seconds };
}

/**
 * One caller, `count` calls of each way, interleaved in blocks of `block` (a drift of the machine touches every way
 * alike): each way's run, its seconds the sum of its calls' times, and with a `meter` the CPU of its blocks.
 */
export async function oneCallerRuns(count: number, block: number, ways: (() => Promise<void>)[], meter?: CpuMeter): Promise<LoopRun[]> {
  const runs = ways.map((): LoopRun => ({ times: [], seconds: 0, cpuMs: meter && new Map() }));
  for (let done = 0; done < count; done += block) {
    for (const [i, call] of ways.entries()) {
      const before = await meter?.();
      for (let n = 0; n < Math.min(block, count - done); n++) {
        const t0 = performance.now();
        await call();
        runs[i].times.push(performance.now() - t0);
      }
      if (before) addCpu(runs[i].cpuMs!, before, await meter!());
    }
  }
  for (const run of runs) run.seconds = run.times.reduce((sum, t) => sum + t, 0) / 1000;
  return runs;
}

function addCpu(sum: Map<string, number>, before: Map<string, number>, after: Map<string, number>): void {
  for (const [part, ms] of after) sum.set(part, (sum.get(part) ?? 0) + ms - (before.get(part) ?? 0));
}

/** `| label | calls/s (each round's) | p50 | p99 |` over one or more rounds of one way. */
export function resultRow(label: string, rounds: LoopRun[]): string {
  const times = rounds.flatMap((r) => r.times).sort((a, b) => a - b);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const perRound = rounds.length > 1 ? ` (${rounds.map((r) => (r.times.length / r.seconds).toFixed(0)).join(" / ")})` : "";
  const ms = (value: number) => value.toFixed(1);
  return `| ${label} | ${(times.length / seconds).toFixed(0)}${perRound} | ${ms(percentile(times, 50))} ms | ${ms(percentile(times, 99))} ms |`;
}

/** The 1, 5 and 15 minute load averages, as the benchmarks print them. */
export function loadAverages(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
}

/** The load line under a benchmark's title: before, at each round's start, after. */
export function machineLoadLine(before: string, atRounds: string[]): string {
  return `machine load (1, 5, 15 min averages; ${os.cpus().length} cores): before ${before}; at the rounds' starts ${atRounds.join(" | ")}; after ${loadAverages()}\n`;
}

/** One GET /health, read to the end: the baseline of a call benchmark. */
export async function getHealth(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/health`);
  if (!res.ok) throw new Error(`health: ${res.status}`);
  await res.arrayBuffer();
}
