// npm run deps (and a layer of npm test): the import graph of lib/, measured by dependency-cruiser
// (.dependency-cruiser.mjs). Fails on any import that points up a layer (docs/architecture.md, "Layers") and
// on an import chain of lib/ folders longer than MAX_LEVELS; prints the longest chain and the upward count.
// A level is one lib/ unit: a folder, or a file directly in lib/ (lib/db.ts); type-only imports count.
import { spawnSync } from "node:child_process";
import path from "node:path";

/** The longest chain of lib/ units allowed (issue 30: from 21 down to at most 12). */
const MAX_LEVELS = 12;

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

const ROOT = path.join(import.meta.dirname, "..");
const depcruise = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const cruised = spawnSync(process.execPath, [depcruise, "lib", "--config", ".dependency-cruiser.mjs", "--output-type", "json"], {
  cwd: ROOT,
  encoding: "utf8",
  maxBuffer: 256 * 1024 * 1024,
});
if (!cruised.stdout) {
  console.error(cruised.stderr || cruised.error?.message);
  process.exit(1);
}
const result = JSON.parse(cruised.stdout) as CruiseResult;

/** A file of a lib/ folder: the folder (orders); a file directly in lib/: its name (lib/db.ts: db). */
const unitOf = (file: string) =>
  file
    .replace(/^lib\//, "")
    .replace(/\/.*$/, "")
    .replace(/\.(ts|tsx|mjs)$/, "");

const graph = new Map<string, Set<string>>();
for (const cruisedModule of result.modules) {
  if (!cruisedModule.source.startsWith("lib/")) continue;
  const from = unitOf(cruisedModule.source);
  const edges = graph.get(from) ?? new Set<string>();
  graph.set(from, edges);
  for (const { resolved } of cruisedModule.dependencies) {
    if (resolved.startsWith("lib/") && unitOf(resolved) !== from) edges.add(unitOf(resolved));
  }
}

// The longest chain from each unit (the folder graph has no cycle: tests/unit/layering.test.ts).
const longest = new Map<string, string[]>();
function chainFrom(unit: string, path: string[] = []): string[] {
  const known = longest.get(unit);
  if (known) return known;
  if (path.includes(unit)) throw new Error(`import cycle between lib/ folders: ${[...path, unit].join(" -> ")}`);
  let best = [unit];
  for (const next of graph.get(unit) ?? []) {
    const chain = [unit, ...chainFrom(next, [...path, unit])];
    if (chain.length > best.length) best = chain;
  }
  longest.set(unit, best);
  return best;
}
const chain = [...graph.keys()]
  .sort()
  .map((unit) => chainFrom(unit))
  .reduce((a, b) => (b.length > a.length ? b : a), []);

const violations = result.summary.violations;
const upward = violations.filter((v) => v.rule.name.endsWith("-imports-up"));
console.log(`lib/ import graph (dependency-cruiser): ${graph.size} folders and files, ${result.modules.length} modules`);
console.log(`longest import chain: ${chain.length} levels (at most ${MAX_LEVELS}): ${chain.join(" -> ")}`);
console.log(`upward imports: ${upward.length}`);
for (const v of violations) console.error(`  ${v.rule.name}: ${v.from} -> ${v.to}`);
if (violations.length > 0 || chain.length > MAX_LEVELS) process.exit(1);
