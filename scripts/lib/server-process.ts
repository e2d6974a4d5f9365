// Starts the production server (server.mjs of this tree, or of another built tree) as a child process and
// waits until /health answers.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./prisma-cli";

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far (empty when its output is inherited). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * The Node flags the production server of the tree at `root` runs with: its package.json's `serverNodeFlags`
 * (docs/operations.md, "Memory and garbage collection"). Every start of the server here passes them (npm start,
 * the tests' and the benchmarks' servers); a tree without them (an older commit benched as a baseline) runs without.
 */
export function serverNodeFlags(root = ROOT): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { serverNodeFlags?: string[] };
  return pkg.serverNodeFlags ?? [];
}

export async function startServerProcess(
  port: number,
  env: Record<string, string>,
  inheritOutput = false,
  nodeArgs: string[] = [],
  root = ROOT,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...serverNodeFlags(root), ...nodeArgs, path.join(root, "server.mjs")], {
    cwd: root,
    // BASE_URL defaults to the very address callers use (`url` below); the caller's environment and `env` override it.
    env: {
      BASE_URL: `http://127.0.0.1:${port}`,
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      ...env,
      PORT: String(port),
    },
    stdio: inheritOutput ? "inherit" : ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (Date.now() >= deadline) throw new Error(`server did not become healthy:\n${output}`);
  if (process.env.SERVER_LOG) {
    child.stdout?.pipe(process.stderr);
    child.stderr?.pipe(process.stderr);
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
  return { url, child, stop, output: () => output };
}
