// The package's own lint (`npm run lint` in packages/sdk, also from a copy of the folder alone): TypeScript's
// recommended rules over src/ and test/. In the service's repository the root config lints these files as well.
import tseslint from "typescript-eslint";

export default tseslint.config({ ignores: ["dist/**"] }, ...tseslint.configs.recommended, {
  rules: {
    // `const { secret: _secret, ...rest } = x` drops a field; `_` marks a deliberately unused name.
    "@typescript-eslint/no-unused-vars": [
      "error",
      { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
    ],
  },
});
