// Inbound wallet-provider webhook: authenticated by its signature, never rate limited (docs/api-reference.md "Events" rule 3).
import { env } from "@/lib/env";
import { createId } from "@/lib/ids";
import { toErrorResult } from "@/lib/http/errors";
import { readBodyText } from "@/lib/http/read-body";
import { handleWalletWebhook } from "@/lib/integrations/wallet-webhook";

export async function POST(req: Request) {
  try {
    const rawBody = await readBodyText(req, env.BODY_LIMIT_BYTES);
    return Response.json(await handleWalletWebhook(rawBody, req.headers.get("x-service-signature")));
  } catch (err) {
    const { status, body } = toErrorResult(err, createId("request"));
    return Response.json(body, { status });
  }
}

export const dynamic = "force-dynamic";
