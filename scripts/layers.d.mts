// Types of scripts/layers.mjs (the layers of lib/), for the TypeScript that reads it (tests/unit/layering.test.ts).
export declare const LAYERS: Record<"handler" | "adapter" | "domain" | "foundation", string[]>;
export declare const LAYER_ORDER: ("handler" | "adapter" | "domain" | "foundation")[];
export declare const ADAPTER_EDGE: string;
export declare function forbiddenFor(layer: "handler" | "adapter" | "domain" | "foundation"): string[];
