// POST /v1/integrations/rail/disputes (docs/disputes.md, "Live mode"): the live rail's provider tells of a dispute.
// A composition of the request pipeline as the wallet webhook is (wallet-webhook-route.ts): its authentication is the
// provider's signature over the raw body, checked by the rail itself (Rail.disputes.readNotice: 401 on a bad one); no
// rate limit (a provider's retries are never refused) and no Idempotency-Key record (the event id is claimed with its
// effect, in applyRailDisputeNotice).
import { applyRailDisputeNotice } from "../disputes/rail-dispute-notice";
import { env } from "../env";
import { NotFoundError, UnauthorizedError } from "../errors";
import type { Authenticate, Steps } from "../http/pipeline";
import { pipeline } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { liveRailDisputes } from "../rails";
import { RailSignatureError, type RailDisputeNotice } from "../rails/rail";

const byRailSignature: Authenticate<RailDisputeNotice> = async (req) => {
  const rawBody = await readBodyText(req, env.BODY_LIMIT_BYTES);
  const disputes = liveRailDisputes();
  if (!disputes) throw new NotFoundError("live rail dispute webhook (LIVE_RAIL names no rail that reports disputes)");
  try {
    return { caller: disputes.readNotice(rawBody, req.headers) };
  } catch (err) {
    if (err instanceof RailSignatureError) throw new UnauthorizedError(err.message);
    throw err;
  }
};

const RAIL_PROVIDER: Steps<RailDisputeNotice> = { authenticate: byRailSignature, claims: false };

export const railDisputeWebhookRoute = pipeline(RAIL_PROVIDER, { rawInput: true, transaction: false }, ({ caller }) =>
  applyRailDisputeNotice(caller),
);
