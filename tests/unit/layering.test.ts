// Imports between lib/ folders only point down (docs/architecture.md, "Layers"): the folder-level import graph
// of lib/ has no cycle. ESLint checks the direction between the named layers (eslint.config.mjs); this checks
// that the domain folders themselves form an order. On failure it prints each cycle with the imports that
// make it, and the whole graph.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LAYERS } from "../../scripts/layers.mjs";

const ROOT = path.join(import.meta.dirname, "../..");
const LIB = path.join(ROOT, "lib");
// `import ... from "x"`, `export ... from "x"`, `import "x"` and `import("x")`.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

type Graph = Map<string, Map<string, string[]>>; // folder -> imported folder -> "file -> specifier" lines

/** The lib/ unit a path belongs to: its top folder (lib/orders) or, for a file directly in lib/, the file (lib/db). */
function unitOf(absolute: string): string | null {
  const parts = path.relative(LIB, absolute).split(path.sep);
  if (parts[0] === ".." || parts[0] === "") return null;
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.(ts|tsx|mjs)$/, "");
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

function libGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(LIB)) {
    const from = unitOf(file)!;
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const target = specifier.startsWith("@/")
        ? path.join(ROOT, specifier.slice(2))
        : specifier.startsWith(".")
          ? path.resolve(path.dirname(file), specifier)
          : null;
      const to = target && unitOf(target);
      if (!to || to === from) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${path.relative(ROOT, file)} -> ${specifier}`]);
    }
  }
  return graph;
}

/** The strongly connected components with more than one node (Tarjan): each is a set of folders that import each other. */
export function cyclesOf(graph: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

describe("layering of lib/", () => {
  it("names every lib/ folder and file directly in lib/ in exactly one layer (scripts/layers.mjs)", () => {
    const units = readdirSync(LIB, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || /\.(ts|tsx|mjs)$/.test(entry.name))
      .map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.(ts|tsx|mjs)$/, "")));
    const named = Object.values(LAYERS).flat();
    expect(units.filter((unit) => named.filter((n) => n === unit).length !== 1)).toEqual([]);
    expect(named.filter((unit) => !units.includes(unit))).toEqual([]); // no layer names what is gone
  });

  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["orders", ["payments"]],
      ["payments", ["events"]],
      ["events", ["orders"]],
      ["db", []],
    ]);
    expect(cyclesOf(graph)).toEqual([["events", "orders", "payments"]]);
    expect(cyclesOf(new Map([["orders", ["payments"]]]))).toEqual([]);
  });

  it("no two lib/ folders import each other, directly or around a cycle", () => {
    const graph = libGraph();
    expect(graph.get("orders")?.has("db")).toBe(true); // the graph is really read
    const cycles = cyclesOf(new Map([...graph].map(([folder, edges]) => [folder, edges.keys()])));
    if (cycles.length) {
      const lines = [...graph].sort().map(([folder, edges]) => `  ${folder} -> ${[...edges.keys()].sort().join(", ")}`);
      const why = cycles.map((cycle) =>
        cycle
          .flatMap((folder) => cycle.flatMap((other) => graph.get(folder)?.get(other) ?? []))
          .map((line) => `  ${line}`)
          .join("\n"),
      );
      console.error(`Import cycles between lib/ folders:\n${why.join("\n\n")}\n\nThe folder graph of lib/:\n${lines.join("\n")}`);
    }
    expect(cycles).toEqual([]);
  });
});
