// ESLint 9 flat config: Next's core-web-vitals and TypeScript rules over the whole tree (npm run lint), and the
// layer rules of docs/architecture.md ("Layers"): imports only point down. Cycles between lib/ folders are
// checked by tests/unit/layering.test.ts.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// lib/ folders that handle requests themselves (the /v1 pipeline, the dashboard, protocol and public paths),
// and lib/openapi, which documents the pipeline's error table: the only ones that may use lib/http.
const REQUEST_HANDLERS = ["http", "dashboard", "auth", "a2a", "acp", "integrations", "mcp", "mpp", "oauth", "openapi", "pay", "x402"];
// The bottom of lib/: the database client and the helpers every module shares. They import only each other.
const FOUNDATION_FILES = [
  "canonical-json",
  "db",
  "env",
  "errors",
  "ids",
  "in-transaction",
  "own-key",
  "pagination",
  "scope",
  "side-pool",
  "state-machine",
];
const FOUNDATION_FOLDERS = ["crypto", "generated", "money", "security", "validation"];
// React's rules (the React Compiler's analyses are the slowest of all) where React code lives: app/ and components/.
const reactRulesOff = Object.fromEntries(
  nextCoreWebVitals
    .flatMap((entry) => Object.keys(entry.rules ?? {}))
    .filter((rule) => /^react(-hooks)?\//.test(rule))
    .map((rule) => [rule, "off"]),
);
const alternatives = (names) => `@(${names.join("|")})`;
const notIn = (names) => `!(${names.join("|")})`;

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
    target: [`./lib/${notIn(REQUEST_HANDLERS)}/**`, "./lib/*.ts"],
    from: ["./lib/http/**", "./lib/dashboard/**"],
    message: "Domain code is below the request pipelines (lib/http, lib/dashboard): take plain arguments, throw domain errors.",
  },
  {
    target: "./packages/**",
    from: ["./app/**", "./components/**", "./lib/**"],
    message: "A package is installed on its own: it imports nothing from the service.",
  },
  {
    target: [`./lib/${alternatives(FOUNDATION_FILES)}.ts`, `./lib/${alternatives(FOUNDATION_FOLDERS)}/**`],
    from: [`./lib/${notIn(FOUNDATION_FOLDERS)}/**`, `./lib/${notIn(FOUNDATION_FILES)}.ts`],
    message: "The foundation of lib/ (db, env, errors, ids, validation, ...) imports only itself.",
  },
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
