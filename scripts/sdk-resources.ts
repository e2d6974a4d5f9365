// npm run sdk:resources: regenerates packages/sdk/src/generated/resources.ts from the routes' operations.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderSdkResources, SDK_RESOURCES_FILE } from "./lib/sdk-resources";

writeFileSync(SDK_RESOURCES_FILE, await renderSdkResources());
console.log(`wrote ${path.relative(process.cwd(), SDK_RESOURCES_FILE)}`);
