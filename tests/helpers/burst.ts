// Sends `count` requests in waves of `concurrency` at once, each wave after the previous one answered.
export async function burst<T>(count: number, send: (i: number) => Promise<T>, concurrency = 10): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < count; i += concurrency) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, (_, j) => send(i + j)))));
  }
  return results;
}
