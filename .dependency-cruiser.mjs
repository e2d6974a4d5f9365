// dependency-cruiser (npm run deps, a layer of npm test): the import graph of lib/, type-only imports included,
// against the layer rule of docs/architecture.md ("Layers", scripts/layers.mjs): any import that points up
// fails, as do an import cycle and a lib/ folder or file that no layer names. scripts/deps.ts prints the figures.
import { forbiddenFor, LAYER_ORDER, LAYERS } from "./scripts/layers.mjs";

const unitsPattern = (names) => `^lib/(${names.join("|")})(/|[.](ts|tsx|mjs)$)`;

/** @type {import("dependency-cruiser").IConfiguration} */
const config = {
  forbidden: [
    ...LAYER_ORDER.filter((layer) => forbiddenFor(layer).length > 0).map((layer) => ({
      name: `${layer}-imports-up`,
      severity: "error",
      comment: `A ${layer} module imports only its own layer and the ones below it (scripts/layers.mjs).`,
      from: { path: unitsPattern(LAYERS[layer]) },
      to: { path: unitsPattern(forbiddenFor(layer)) },
    })),
    {
      name: "no-circular",
      severity: "error",
      comment: "No module of lib/ reaches itself through its imports, type-only ones included (lib/http's type loop was one).",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "not-in-a-layer",
      severity: "error",
      comment: "Every lib/ folder and file directly in lib/ is named in one layer of scripts/layers.mjs.",
      from: { path: "^lib/", pathNot: unitsPattern(Object.values(LAYERS).flat()) },
      to: {},
    },
  ],
  options: {
    includeOnly: "^lib/",
    doNotFollow: { path: "^lib/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".mjs", ".js", ".json"] },
  },
};

export default config;
