// POST /ap2/keys/rotate (merchant key; docs/a2a.md): a new CartMandate signing key; the old one stays in the JWKS
// for a day so mandates it signed still verify.
import { z } from "zod";
import { api } from "@/lib/http/api";
import { rotateSigningKey } from "@/lib/ap2/keys";

export const POST = api(
  { auth: "secret", permission: ["ap2", "write"], body: z.object({}).strict().optional(), idempotent: false },
  ({ tx, principal }) => rotateSigningKey(tx, principal.merchantId),
);

export const dynamic = "force-dynamic";
