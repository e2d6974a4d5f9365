// Starts examples/mcp-server.ts (`npm run example:mcp`'s program) as its own process against a service.
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "./server";

export interface ExampleServer {
  url: string;
  /** How often each tool's handler ran in that process. */
  runs: () => Promise<Record<string, number>>;
  /** How many calls of each tool that process received. */
  calls: () => Promise<Record<string, number>>;
  stop: () => Promise<void>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function startMcpExample(
  env: { SERVICE_URL: string; SERVICE_API_KEY: string; MERCHANT_ID: string } & Record<string, string>,
): Promise<ExampleServer> {
  const port = await freePort();
  const child = spawn(path.join(ROOT, "node_modules", ".bin", "tsx"), [path.join(ROOT, "examples", "mcp-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`example exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`example did not start:\n${output}`);
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stats = async () => (await (await fetch(`${url}/stats`)).json()) as { runs: Record<string, number>; calls: Record<string, number> };
  return {
    url,
    runs: async () => (await stats()).runs,
    calls: async () => (await stats()).calls,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
      }),
  };
}
