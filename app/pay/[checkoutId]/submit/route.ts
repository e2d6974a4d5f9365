// The pay form's endpoint (JSON for the page's script, a 303 redirect for a plain HTML form post).
import { handlePaySubmit } from "../../../../lib/pay/handle-pay-submit";

export const dynamic = "force-dynamic";

export async function POST(req: Request, context: { params: Promise<{ checkoutId: string }> }) {
  const { checkoutId } = await context.params;
  return handlePaySubmit(req, checkoutId);
}
