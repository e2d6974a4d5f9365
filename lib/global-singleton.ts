// One object per process, whatever bundle asks: Next bundles instrumentation, the proxy and each route apart
// (and reloads modules in development), so a module-level variable could exist several times over; a
// pool, a breaker, a limiter or a registry kept on globalThis under a registered symbol exists once.

/** The process's one value under `key`, made by `create` on first use. */
export function globalSingleton<T>(key: string, create: () => T): T {
  const slot = Symbol.for(`aps.${key}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  if (store[slot] === undefined) store[slot] = create();
  return store[slot];
}
