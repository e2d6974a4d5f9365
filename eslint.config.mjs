// ESLint 9 flat config: Next's core-web-vitals and TypeScript rules over the whole tree (npm run lint), and the
// layer rules of docs/architecture.md ("Layers"): imports only point down. The layers of lib/ are named in
// scripts/layers.mjs; cycles between lib/ folders are checked by tests/unit/layering.test.ts, and the same rule
// over the whole import graph by dependency-cruiser (npm run deps).
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { ADAPTER_EDGE, forbiddenFor, LAYERS } from "./scripts/layers.mjs";

// React's rules (the React Compiler's analyses are the slowest of all) where React code lives: app/ and components/.
const reactRulesOff = Object.fromEntries(
  nextCoreWebVitals
    .flatMap((entry) => Object.keys(entry.rules ?? {}))
    .filter((rule) => /^react(-hooks)?\//.test(rule))
    .map((rule) => [rule, "off"]),
);
const alternatives = (names) => `@(${names.join("|")})`;
/** The files of some lib/ units: a folder's whole tree, or a file directly in lib/. */
const units = (names) => [`./lib/${alternatives(names)}/**`, `./lib/${alternatives(names)}.@(ts|tsx|mjs)`];

// Why each layer of lib/ may not import the ones above it (scripts/layers.mjs).
const LAYER_MESSAGES = {
  adapter: `A protocol adapter composes lib/${ADAPTER_EDGE}'s pipeline and calls the domain; it never imports another request handler (the dashboard, the pay page, the tick, ...): move the shared code down.`,
  domain:
    "Domain code is below the protocol adapters and the request handlers (lib/http, lib/dashboard, ...): take plain arguments, throw domain errors; an adapter plugs into a domain table (lib/register-adapters.ts) instead of being imported.",
  foundation: "The foundation of lib/ (db, env, errors, ids, validation, security, ...) imports only itself.",
};

const layers = [
  {
    target: "./lib/**",
    from: ["./app/**", "./components/**"],
    message: "lib/ is below app/ and components/ (docs/architecture.md, Layers): move the shared code down into lib/.",
  },
  {
    target: "./components/**",
    from: ["./lib/@(db|in-transaction).ts", "./lib/generated/**", "./lib/http/**"],
    message: "components/ render; they read data through app/ pages and lib/dashboard, never the database or the /v1 pipeline.",
  },
  {
    target: "./packages/**",
    from: ["./app/**", "./components/**", "./lib/**"],
    message: "A package is installed on its own: it imports nothing from the service.",
  },
  ...Object.entries(LAYER_MESSAGES).map(([layer, message]) => ({
    target: units(LAYERS[layer]),
    from: units(forbiddenFor(layer)),
    message,
  })),
];

const config = [
  {
    ignores: [
      "lib/generated/**",
      ".data/**",
      "test-results/**",
      "playwright-report/**",
      "e2e/screenshots/**",
      "dist/**",
      "packages/*/dist/**",
    ],
  },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      // `const { secret: _secret, ...rest } = x` is how the code drops a field; `_` marks a deliberately unused name.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
    },
  },
  {
    files: ["app/**", "components/**", "lib/**", "packages/**"],
    rules: { "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: layers }] },
  },
  { files: ["**/*.{ts,tsx,mjs,js}"], ignores: ["app/**", "components/**"], rules: reactRulesOff },
  {
    // Tests read untyped JSON response bodies; typing each one would only restate the assertions.
    files: ["tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
