// A production build of another commit, for benchmarks that compare before and after in one run: the
// commit's files in a git worktree under the system's temporary directory (outside the repository),
// node_modules hard-linked from ours, then that commit's own `npm run build` (its Prisma client, then
// `next build`). Kept after the run, one per commit, so the next comparison skips the build.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runChild } from "./child";
import { ROOT } from "./prisma-cli";

async function run(command: string, args: string[], cwd = ROOT): Promise<string> {
  const { code, output } = await runChild(command, args, { cwd, capture: true });
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${output}`);
  return output.trim();
}

/** The root of a built tree of `ref` (any git revision). */
export async function baselineBuild(ref: string, log: (line: string) => void = console.log): Promise<{ root: string; commit: string }> {
  const commit = await run("git", ["rev-parse", "--verify", `${ref}^{commit}`]);
  const root = path.join(tmpdir(), `aps-bench-baseline-${commit.slice(0, 12)}`);
  if (existsSync(path.join(root, ".next", "BUILD_ID"))) return { root, commit };
  log(`Building the baseline ${ref} (${commit.slice(0, 12)}) in ${root}; a few minutes the first time...`);
  await rm(root, { recursive: true, force: true });
  await run("git", ["worktree", "prune"]);
  await run("git", ["worktree", "add", "--detach", root, commit]);
  await run("cp", ["-al", path.join(ROOT, "node_modules"), path.join(root, "node_modules")]);
  await run("npm", ["run", "build"], root);
  return { root, commit };
}
