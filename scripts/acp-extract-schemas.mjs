// Turns ACP's OpenAPI-only schemas (the order webhook, and delegate payment for cross-checking) into
// standalone JSON Schema bundles under tests/fixtures/acp/, so tests can validate with ajv.
// OpenAPI 3.1 schemas are JSON Schema 2020-12 already; all this does is gather components.schemas into
// `$defs`, rewrite `#/components/schemas/X` to `#/$defs/X`, and pull schemas that another file
// references (`./openapi.agentic_checkout.yaml#/components/schemas/Order`) in with their own dependencies.
// Run: node scripts/acp-extract-schemas.mjs (the output is committed; rerun after updating the YAML).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import yaml from "js-yaml";

const DIR = path.join(import.meta.dirname, "../tests/fixtures/acp");
const SOURCES = [
  ["openapi.agentic_checkout_webhook", "schema.agentic_checkout_webhook"],
  ["openapi.delegate_payment", "schema.delegate_payment_openapi"],
];
const VERSIONS = ["2026-01-16", "2026-01-30", "2026-04-17"];

const loaded = new Map();
function components(file) {
  if (!loaded.has(file)) loaded.set(file, yaml.load(readFileSync(path.join(DIR, "openapi", file), "utf8")).components.schemas);
  return loaded.get(file);
}

/** Copies schema `name` of `file` (and everything it references) into `defs`, returning its `$defs` name. */
function include(file, name, defs, origin) {
  if (origin.has(name)) {
    if (origin.get(name) !== file) throw new Error(`${name} is defined in both ${origin.get(name)} and ${file}`);
    return name;
  }
  const schema = components(file)[name];
  if (!schema) throw new Error(`${file} has no components.schemas.${name}`);
  origin.set(name, file);
  defs[name] = rewrite(schema, file, defs, origin);
  return name;
}

function rewrite(node, file, defs, origin) {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, file, defs, origin));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string") {
      const [target, pointer] = value.split("#");
      const name = pointer.replace(/^\/components\/schemas\//, "");
      if (name === pointer) throw new Error(`unsupported $ref ${value} in ${file}`);
      // A ./openapi.x.yaml reference names a sibling of the same version: our copies carry the version in the name.
      const refFile = target ? target.replace(/^\.\//, "").replace(/\.yaml$/, file.match(/\.\d{4}-\d{2}-\d{2}\.yaml$/)[0]) : file;
      out.$ref = `#/$defs/${include(refFile, name, defs, origin)}`;
    } else out[key] = rewrite(value, file, defs, origin);
  }
  return out;
}

for (const version of VERSIONS) {
  for (const [source, target] of SOURCES) {
    const file = `${source}.${version}.yaml`;
    const defs = {};
    const origin = new Map();
    for (const name of Object.keys(components(file))) include(file, name, defs, origin);
    const bundle = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $comment: `Extracted by scripts/acp-extract-schemas.mjs from tests/fixtures/acp/openapi/${file}`,
      $defs: defs,
    };
    writeFileSync(path.join(DIR, `${target}.${version}.json`), JSON.stringify(bundle, null, 2) + "\n");
  }
}
