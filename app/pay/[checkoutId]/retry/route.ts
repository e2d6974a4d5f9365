// The declined page's "Try again with another card" (lib/pay/handle-retry.ts).
import { handleRetry } from "../../../../lib/pay/handle-retry";

export const dynamic = "force-dynamic";

export async function POST(req: Request, context: { params: Promise<{ checkoutId: string }> }) {
  const { checkoutId } = await context.params;
  return handleRetry(req, checkoutId);
}
