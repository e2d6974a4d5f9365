// POST /v1/integrations/wallet/webhook as a composition of the request pipeline (lib/http/pipeline.ts): its
// authentication step is the provider's signature over the raw body (at most BODY_LIMIT_BYTES), and it takes no
// rate-limit token (docs/api-reference.md "Events" rule 3: a provider's retries must never be refused), no
// Idempotency-Key record (the event id is claimed with its effect) and the error contract's shape.
import { env } from "../env";
import type { Authenticate, Steps } from "../http/pipeline";
import { pipeline } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { handleWalletWebhook, verifiedWalletEvent } from "./wallet-webhook";

/** The signed event is the caller: what the signature vouches for. */
const byWalletSignature: Authenticate<unknown> = async (req) => {
  const rawBody = await readBodyText(req, env.BODY_LIMIT_BYTES);
  return { caller: verifiedWalletEvent(rawBody, req.headers.get("x-service-signature")) };
};

const WALLET_PROVIDER: Steps<unknown> = { authenticate: byWalletSignature, claims: false };

export const walletWebhookRoute = pipeline(WALLET_PROVIDER, { rawInput: true, transaction: false }, ({ caller }) =>
  handleWalletWebhook(caller),
);
