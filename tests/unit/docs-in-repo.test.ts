// The repository is its own reference: no code comment or doc cites a document that lives outside it, and
// every relative link in the docs names a file that exists. A newcomer can follow every pointer.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "../..");
const TEXT = /\.(ts|tsx|mjs|js|json|md|css|sh|prisma|sql|ya?ml)$|(^|\/)run$/;

function trackedTextFiles(): string[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0");
  return files.filter((file) => file && TEXT.test(file) && file !== "package-lock.json" && existsSync(path.join(ROOT, file)));
}

// Documents the project was first specified in; they are not part of the repository.
const OUTSIDE_DOCUMENT = /\b(SPEC|CONTRACT|ARCHITECTURE|DEVELOPERS)\.md\b|\.\.\/shared\//;

describe("docs live in the repository", () => {
  it("no file cites a document outside the repository", () => {
    const offenders = trackedTextFiles()
      .filter((file) => file !== "tests/unit/docs-in-repo.test.ts")
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, i) => (OUTSIDE_DOCUMENT.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it("every relative link in a markdown file names a file that exists", () => {
    const broken: string[] = [];
    for (const file of trackedTextFiles().filter((f) => f.endsWith(".md"))) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^([a-z]+:|#|\/)/i.test(target)) continue; // a URL, an anchor, or a path of the running service
        const linked = path.join(ROOT, path.dirname(file), target.split("#")[0]);
        if (!existsSync(linked)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README stays a front page: under 8 KB", () => {
    expect(readFileSync(path.join(ROOT, "README.md")).byteLength).toBeLessThan(8 * 1024);
  });
});
