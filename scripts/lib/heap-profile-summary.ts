// Reads a sampling heap profile (.heapprofile, as scripts/lib/heap-profile-preload.mjs writes it) and lists the
// allocation sites holding the most bytes: each site's function, file:line:column and its caller, in bytes per request.
import { readFileSync } from "node:fs";
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const frameName = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}` : ""}`.trim();

/** The top `count` sites by bytes, as table rows: bytes per request, share, site, caller. */
export function heapProfileTopSites(file: string, requests: number, count = 25): string[] {
  const { head } = JSON.parse(readFileSync(file, "utf8")) as { head: ProfileNode };
  const sites = new Map<string, { bytes: number; callers: Map<string, number> }>();
  let total = 0;
  const walk = (node: ProfileNode, parent: CallFrame | null) => {
    if (node.selfSize > 0) {
      const key = frameName(node.callFrame);
      const site = sites.get(key) ?? { bytes: 0, callers: new Map() };
      site.bytes += node.selfSize;
      const caller = parent ? frameName(parent) : "-";
      site.callers.set(caller, (site.callers.get(caller) ?? 0) + node.selfSize);
      sites.set(key, site);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, node.callFrame);
  };
  walk(head, null);
  const rows = [...sites].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, count);
  return [
    `Heap profile ${file}: ${(total / 1_048_576).toFixed(1)} MB sampled, ${(total / requests / 1024).toFixed(1)} KB per request (${requests} requests)`,
    "| bytes/request | share | allocation site | its main caller |",
    "|---:|---:|---|---|",
    ...rows.map(([key, site]) => {
      const caller = [...site.callers].sort((a, b) => b[1] - a[1])[0][0];
      return `| ${Math.round(site.bytes / requests)} | ${((site.bytes / total) * 100).toFixed(1)}% | ${key} | ${caller} |`;
    }),
  ];
}

// `node --import tsx scripts/lib/heap-profile-summary.ts <file> <requests> [count]`
if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, requests, count] = process.argv.slice(2);
  console.log(heapProfileTopSites(file, Number(requests), Number(count ?? 25)).join("\n"));
}
