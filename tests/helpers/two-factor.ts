// TOTP codes as an authenticator app computes them (otpauth), for tests that enroll in two-factor sign-in
// and sign in with it. The server accepts a step within one of now, each later than the user's last accepted one:
// this helper hands out the earliest such step, waiting for the next one only when needed.
import { TOTP } from "otpauth";

const PERIOD_MS = 30_000;
const lastStep = new Map<string, number>();

export function totpAt(secret: string, step: number): string {
  return new TOTP({ secret: secret.replace(/\s+/g, ""), digits: 6, period: 30, algorithm: "SHA1" }).generate({
    timestamp: step * PERIOD_MS,
  });
}

export function currentStep(now = Date.now()): number {
  return Math.floor(now / PERIOD_MS);
}

/**
 * A fresh code: the earliest step after this secret's last one that the server accepts now (the previous, the current
 * or the next step), waiting for the next step only when all three are spent: three sign-ins in a row need no wait.
 */
export async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const now = currentStep();
    const msLeft = (now + 1) * PERIOD_MS - Date.now();
    // Neither neighbour in this step's last 2 s: the server's clock may read the step after by the time the code
    // arrives, two past the previous one (and, with clock drift, the next one is best kept for then too).
    const earliest = msLeft > 2_000 ? now - 1 : now;
    const latest = msLeft > 2_000 ? now + 1 : now;
    const step = Math.max(earliest, (lastStep.get(secret) ?? -Infinity) + 1);
    if (step <= latest) {
      lastStep.set(secret, step);
      return totpAt(secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
  }
}
