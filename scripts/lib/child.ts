// Runs a child process without blocking our event loop (never spawnSync for long work: while the loop
// is blocked, nothing reads the pipes of the other children, e.g. a database server's log, and they stall).
import { spawn } from "node:child_process";
import { ROOT } from "./prisma-cli";

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  uid?: number;
  gid?: number;
  /** Collect stdout and stderr (returned as `output`) instead of passing them through to ours. */
  capture?: boolean;
}

export function runChild(command: string, args: string[], options: ChildOptions = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: options.env ?? process.env,
      uid: options.uid,
      gid: options.gid,
      stdio: options.capture ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}
