// Every repository path a doc or a code comment cites names something that exists, so a newcomer who follows
// one finds the file (files move; the citations must move with them).
//
// What counts as a repository path, so that the rule neither misses a stale citation nor forbids a legitimate
// one:
// - Anchored: a word that starts with a top-level folder of the repository (`lib/`, `app/`, `docs/`, ...),
//   backticked or not, in a markdown file (code blocks included: their commands name real files) or in a code
//   comment. It must exist as written, or with a source extension added (`lib/db` is lib/db.ts). A word glued
//   to a `/`, `.`, `@` or letter before it is not anchored: `/v1/checkouts` and `/api/dashboard/...` are HTTP
//   routes of the service, `../lib/x` a relative link (checked by docs-in-repo.test.ts), `https://.../lib/x`
//   another repository; so is `prisma/orm#27403`, an issue there.
// - Short: a backticked path that is not anchored, written relative to the folder being described
//   (`checkouts/get-checkout.ts`, `errors.ts`, `security/`): when it ends in a file extension or a `/`, some
//   file or folder of the repository must end with it. Anything else with a slash (`application/json`,
//   `tools/call`, `@x402/fetch`, `mppx/server`) is not a repository path.
// - Never a path: words with a placeholder, a glob or a parameter (`<domain>`, `*`, `{id}`, `:id`, `...`), and
//   anything git ignores (`.data/`, `lib/generated/prisma`, `e2e/screenshots/...`: made by a build or a run).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "../..");

/** Tracked files and files not yet committed but not ignored: what a checkout of this tree holds. */
const FILES = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" })
  .split("\0")
  .filter((file) => file && existsSync(path.join(ROOT, file)));

/** Every file and every folder above one, as repository-relative paths without a trailing slash. */
const ENTRIES = new Set(FILES.flatMap((file) => file.split("/").map((_, i, parts) => parts.slice(0, i + 1).join("/"))));
const TOP_FOLDERS = [...new Set(FILES.filter((file) => file.includes("/")).map((file) => file.split("/")[0]))];

const SOURCE_EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", ".json", ".md"];
const FILE_EXTENSION = /\.(ts|tsx|mjs|js|json|md|sql|prisma|css|sh|ya?ml|png|txt)$/;
/** An anchored word: a top-level folder, then path characters; the character before it is no path character. */
const TOP = `(?:${TOP_FOLDERS.map((folder) => folder.replace(/\./g, "\\.")).join("|")})/`;
const ANCHORED = new RegExp(`(?<![\\w./@:~$-])${TOP}[\\w./\\[\\]()*<>{}:-]*`, "g");
const STARTS_ANCHORED = new RegExp(`^${TOP}`);
/** Placeholders, globs, parameters and ellipses: an example or a pattern, not one path. */
const NOT_ONE_PATH = /[<>{}*:]|\.\.\.|\$/;

function existsInRepo(cited: string): boolean {
  const bare = cited.replace(/\/+$/, "");
  return SOURCE_EXTENSIONS.some((extension) => ENTRIES.has(bare + extension));
}

function someEntryEndsWith(cited: string): boolean {
  const bare = cited.replace(/^\.\//, "").replace(/\/+$/, "");
  if (ENTRIES.has(bare)) return true;
  for (const entry of ENTRIES) if (entry.endsWith(`/${bare}`)) return true;
  return false;
}

/** Drops sentence punctuation after a word: `lib/x.ts).` is lib/x.ts; `app/(auth)/login` keeps its parentheses. */
function trimPunctuation(word: string): string {
  let out = word;
  for (;;) {
    const last = out.at(-1);
    if (last === "." || last === ":" || (last === ")" && out.split("(").length < out.split(")").length)) out = out.slice(0, -1);
    else return out;
  }
}

/** Repository paths a piece of text cites that do not exist (before the ignore check). */
function missingIn(text: string, backticked: string[]): string[] {
  const missing: string[] = [];
  for (const { 0: match, index } of text.matchAll(ANCHORED)) {
    if (/^#\d/.test(text.slice(index + match.length))) continue; // prisma/orm#27403: an issue of another repository
    const word = trimPunctuation(match.split("](")[0]); // [docs/x.md](docs/x.md): the link's text, then its target
    if (!NOT_ONE_PATH.test(word) && !existsInRepo(word)) missing.push(word);
  }
  for (const span of backticked) {
    if (!/^[\w.\-/[\]()@+]+$/.test(span) || !/[a-z]/i.test(span) || span.startsWith("/") || NOT_ONE_PATH.test(span)) continue;
    if (STARTS_ANCHORED.test(span)) continue; // checked above, as written
    if ((FILE_EXTENSION.test(span) || span.endsWith("/")) && !someEntryEndsWith(span)) missing.push(span);
  }
  return missing;
}

function backtickedSpans(text: string): string[] {
  return [...text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
}

/** The comment text of a source file, line by line (line comments, JSDoc and block comment lines). */
function commentLines(file: string, text: string): string[] {
  const lineComment = file.endsWith(".sql") ? /(?:^|\s)--\s(.*)$/ : /(?:^|\s)\/\/\/?\s?(.*)$/;
  return text.split("\n").map((line) => {
    const trimmed = line.trim();
    if (/^(\/\*\*?|\*|\{\/\*)/.test(trimmed)) return trimmed;
    return lineComment.exec(line)?.[1] ?? "";
  });
}

const MARKDOWN = FILES.filter((file) => file.endsWith(".md"));
// Code comments of the product (tests keep their own examples: a merchant's app/api/... in a test is not ours).
const COMMENTED = FILES.filter(
  (file) => /^(lib|app|components|scripts|packages|prisma|e2e)\/|^[^/]+$/.test(file) && /\.(ts|tsx|mjs|prisma|sql)$/.test(file),
);

function ignoredByGit(paths: string[]): Set<string> {
  if (paths.length === 0) return new Set();
  try {
    const out = execFileSync("git", ["check-ignore", "--no-index", "--stdin"], { cwd: ROOT, input: paths.join("\n"), encoding: "utf8" });
    return new Set(out.split("\n").filter(Boolean));
  } catch {
    return new Set(); // exit status 1: none of them is ignored
  }
}

type Read = (file: string, text: string) => { lines: string[]; spans: (line: number) => string[] };

function staleCitations(files: string[], read: Read) {
  const found: { where: string; cited: string }[] = [];
  for (const file of files) {
    const { lines, spans } = read(file, readFileSync(path.join(ROOT, file), "utf8"));
    lines.forEach((line, i) => {
      for (const cited of missingIn(line, spans(i))) found.push({ where: `${file}:${i + 1}`, cited });
    });
  }
  const ignored = ignoredByGit([...new Set(found.map((f) => f.cited))]);
  return found.filter((f) => !ignored.has(f.cited)).map((f) => `${f.where}: ${f.cited}`);
}

describe("cited repository paths exist", () => {
  it("in every markdown file", () => {
    const stale = staleCitations(MARKDOWN, (_file, text) => {
      const fenced = new Set<number>();
      let inFence = false;
      text.split("\n").forEach((line, i) => {
        if (line.trimStart().startsWith("```")) inFence = !inFence;
        else if (inFence) fenced.add(i);
      });
      const lines = text.split("\n");
      return { lines, spans: (i) => (fenced.has(i) ? [] : backtickedSpans(lines[i])) };
    });
    expect(stale).toEqual([]);
  });

  it("in every code comment of lib/, app/, components/, scripts/, packages/ and prisma/", () => {
    const stale = staleCitations(COMMENTED, (file, text) => {
      const lines = commentLines(file, text);
      return { lines, spans: (i) => backtickedSpans(lines[i]) };
    });
    expect(stale).toEqual([]);
  });

  it("tells a repository path from an HTTP route, a media type and a placeholder", () => {
    expect(missingIn("see `lib/nowhere/gone.ts` and lib/also-gone.ts.", [])).toEqual(["lib/nowhere/gone.ts", "lib/also-gone.ts"]);
    expect(missingIn("`get-nothing.ts` and `nowhere/`", ["get-nothing.ts", "nowhere/"])).toEqual(["get-nothing.ts", "nowhere/"]);
    const short = ["unit/docs-paths.test.ts", "docs-paths.test.ts", "unit/"]; // this file, from its folders
    expect(missingIn(short.map((span) => `\`${span}\``).join(", "), short)).toEqual([]);
    const legitimate =
      "`/v1/checkouts` POST /x402/r/:id /api/dashboard/products lib/<domain>/x.ts tests/global-setup (docs/architecture.md).";
    expect(missingIn(legitimate, ["/v1/checkouts", "application/json", "tools/call", "@x402/fetch", "lib/<domain>/x.ts"])).toEqual([]);
    expect(missingIn("https://github.com/o/r/blob/main/docs/gone.md, ../lib/gone.ts, prisma/orm#27403", [])).toEqual([]);
    expect(missingIn("[docs/README.md](docs/README.md) and lib/meters/* and `app/v1/products/**`", [])).toEqual([]);
  });
});
