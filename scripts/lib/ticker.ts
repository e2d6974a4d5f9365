// The local cron: calls GET /api/cron/tick every `intervalMs`, one tick at a time (what a hosted cron
// does through vercel.json). Used by `npm start`, and by tests that need the same cadence.
export function startTicker(baseUrl: string, cronSecret: string, intervalMs = 1_000): () => void {
  let ticking = false;
  const timer = setInterval(async () => {
    if (ticking) return;
    ticking = true;
    try {
      await fetch(`${baseUrl}/api/cron/tick`, { headers: { Authorization: `Bearer ${cronSecret}` } });
    } catch {
      // the server is restarting or stopping; the next tick tries again
    } finally {
      ticking = false;
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
