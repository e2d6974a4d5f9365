// Service modules evaluated under settings of a test file's own. lib/env.ts parses the environment once, when first
// imported, and the suite runs without isolation (vitest.config.ts: a worker's files share their modules): a file
// that needs other settings imports fresh copies of the modules under them, and puts the environment and the module
// registry back after, so that the worker's next files see neither.
import { vi } from "vitest";

export interface ModulesWithEnv<T> {
  modules: T;
  /** The environment as it was, and the registry emptied again (the next file imports its own copies). */
  restore: () => void;
}

export async function importWithEnv<T>(settings: Record<string, string>, load: () => Promise<T>): Promise<ModulesWithEnv<T>> {
  const before = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  vi.resetModules();
  const modules = await load();
  return {
    modules,
    restore: () => {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      vi.resetModules();
    },
  };
}
