// POST /approvals/:token/decide (the mailed link's form, docs/approvals.md): approves or declines the request
// the link names, spending the link in the same transaction (it works once); then back to the link's page,
// which shows the outcome. A used, expired or unknown link is 410 and changes nothing.
import { decideByLink } from "@/lib/shared-payment-tokens/await-approval";
import { transaction } from "@/lib/db";
import { DomainError } from "@/lib/errors";

export const dynamic = "force-dynamic";

export async function POST(req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const form = await req.formData().catch(() => null);
  const decision = form?.get("decision");
  if (decision !== "approve" && decision !== "decline") return text(400, "Choose approve or decline.");
  try {
    await transaction((tx) => decideByLink(tx, token, decision));
  } catch (err) {
    if (err instanceof DomainError) return text(err.code === "GONE" ? 410 : 409, err.message);
    throw err;
  }
  return new Response(null, {
    status: 303,
    headers: { Location: `/approvals/${encodeURIComponent(token)}`, "Referrer-Policy": "no-referrer" },
  });
}

function text(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
