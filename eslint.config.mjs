// ESLint 9 flat config: Next's core-web-vitals and TypeScript rules over the whole tree (npm run lint).
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

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
    // Tests read untyped JSON response bodies; typing each one would only restate the assertions.
    files: ["tests/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
