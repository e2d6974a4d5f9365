// Polls a server's /ready until it answers 200, the deadline passes, or `gaveUp()` says to stop.
export async function waitForReady(baseUrl: string, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gaveUp()) throw new Error(`gave up waiting for ${baseUrl}/ready`);
    try {
      if ((await fetch(`${baseUrl}/ready`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${baseUrl}/ready did not answer 200 within ${timeoutMs} ms`);
}
