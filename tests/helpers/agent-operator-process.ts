// The local "agent operator" (agent-operator.mjs) in its own process: its origins (one port per behaviour) and the
// public keys its directory lists. Tests of foreign agent directories start it once per file.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export type Jwk = JsonWebKey & { kty: string };

export interface AgentOperator {
  child: ChildProcess;
  ports: Record<"good" | "short" | "badsig" | "slow" | "huge", number>;
  keys: { ed25519: Jwk; rsa: Jwk };
}

export const operatorOrigin = (port: number) => `http://127.0.0.1:${port}`;

export function startAgentOperator(): Promise<AgentOperator> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "agent-operator.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`agent operator exited with ${code}`)));
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) resolve({ child, ...JSON.parse(out) });
    });
  });
}
