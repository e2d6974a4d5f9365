// The request bodies of the checkout API by API-Version: 2026-01-16's (lib/acp/schemas.ts) or 2026-01-30's and
// 2026-04-17's (lib/acp/schemas-2026.ts), tagged with the version so a route hands each to its own handler.
import type { z } from "zod";
import { CheckoutSessionCompleteRequest, CheckoutSessionCreateRequest, CheckoutSessionUpdateRequest, type AcpVersion } from "./schemas";
import { CompleteRequest, CreateRequest, UpdateRequest, type HandlerVersion } from "./schemas-2026";

export type Versioned<L, C> = { version: "2026-01-16"; input: L } | { version: HandlerVersion; input: C };

function versioned<L extends z.ZodType, C extends z.ZodType>(legacy: L, current: Record<HandlerVersion, C>) {
  return (version: AcpVersion): z.ZodType<Versioned<z.output<L>, z.output<C>>> =>
    version === "2026-01-16"
      ? legacy.transform((input) => ({ version, input }))
      : current[version].transform((input) => ({ version, input }));
}

export const createBody = versioned(CheckoutSessionCreateRequest, CreateRequest);
export const updateBody = versioned(CheckoutSessionUpdateRequest, UpdateRequest);
export const completeBody = versioned(CheckoutSessionCompleteRequest, CompleteRequest);
