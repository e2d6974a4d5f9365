// npm run sdk:types: regenerates packages/sdk/src/generated/openapi.ts from docs/openapi.json.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { renderSdkTypes, SDK_TYPES_FILE } from "./lib/sdk-types";

mkdirSync(path.dirname(SDK_TYPES_FILE), { recursive: true });
writeFileSync(SDK_TYPES_FILE, await renderSdkTypes());
console.log(`wrote ${path.relative(process.cwd(), SDK_TYPES_FILE)}`);
