// TOTP codes as an authenticator app computes them (otpauth), for tests that enroll in two-factor sign-in
// and sign in with it. The server accepts a step within one of now, and each step once per user: this
// helper hands out a step no earlier code of the same secret used, waiting for the next one when needed.
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

/** A fresh code: the current step, or the next one when this secret's current step is spent already. */
export async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const now = currentStep();
    const step = Math.max(now, (lastStep.get(secret) ?? -1) + 1);
    // The next step is accepted too, except in the last second of this one (the server may be in the one after).
    const msLeft = (now + 1) * PERIOD_MS - Date.now();
    if (step === now || (step === now + 1 && msLeft > 2_000)) {
      lastStep.set(secret, step);
      return totpAt(secret, step);
    }
    await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
  }
}
