// ACP 3-D Secure in test mode (docs/acp.md "3-D Secure"; ACP checkout RFC section 4.4). A token whose card demands
// authentication (the test card 4000002760003184, lib/rails/test-cards.ts) is never charged without it:
//  - complete without `authentication_result` marks the session authentication_required (committed, nothing
//    charged) and answers it with `authentication_metadata`, what the agent authenticates with;
//  - complete again still without it: 400 `requires_3ds`, param `$.authentication_result` (as the RFC requires);
//  - with a failed outcome: 402 payment_declined, nothing charged; with a successful one whose details fit the
//    directory server (ECI, a 20-byte cryptogram, a 3DS 2.x version): charged, as authenticated, once.
// There is no directory server in test mode: a result is checked for its form, as a test acquirer would.
import type { Db } from "../db";
import type { AcpCheckoutSession } from "../generated/prisma/client";
import { requiresAuthentication } from "../rails/test-cards";
import type { Scope } from "../scope";
import { acpError } from "./http";
import type { CheckoutSessionObject, CompleteSessionInput } from "./schemas";
import type { CompleteInput2026 } from "./schemas-2026";

/** The result as the version asked names its outcomes (2026-01-16's, or 2026-01-30's and 2026-04-17's). */
export type AuthenticationResult = NonNullable<CompleteSessionInput["authentication_result"] | CompleteInput2026["authentication_result"]>;

const RESULT_PARAM = "$.authentication_result";

/** Outcomes after which the charge goes ahead (2026-01-30's and 2026-04-17's names, and `attempt` of 2026-01-16). */
const PASSED = new Set(["authenticated", "attempt_acknowledged", "attempt"]);

/** The Electronic Commerce Indicator of a full authentication and of an attempt, per directory server. */
const ECI = { visa: { authenticated: "05", attempt: "06" } } as const;

/**
 * The browser channel a test-mode challenge runs in (there is no real directory server to reach). No JavaScript:
 * 2026-01-30 then requires no screen and colour details, which a test-mode agent does not have.
 */
const TEST_BROWSER = {
  accept_header: "text/html,application/json",
  ip_address: "127.0.0.1",
  javascript_enabled: false,
  language: "en-US",
  user_agent: "agent-payments-service-3ds-test",
};

/** The test acquirer shown in authentication_metadata (its BIN is Visa's test range). */
const TEST_ACQUIRER_BIN = "400000";

export type AuthenticationStep = { authenticated: boolean } | { required: AcpCheckoutSession };

/**
 * Complete's 3-D Secure step, in its transaction with the session locked: whether to charge as authenticated, or
 * the session now marked authentication_required (its answer; nothing charged).
 */
export async function authenticationStep(
  tx: Db,
  scope: Scope,
  session: AcpCheckoutSession,
  tokenId: string,
  result: AuthenticationResult | undefined,
): Promise<AuthenticationStep> {
  if (!(await cardDemandsAuthentication(tx, scope, tokenId))) return { authenticated: false };
  if (!result) {
    if (session.authenticationRequiredAt) {
      throw acpError(
        "VALIDATION_ERROR",
        "This checkout session requires issuer authentication: the request must include authentication_result.",
        {
          type: "invalid_request",
          code: "requires_3ds",
          param: RESULT_PARAM,
        },
      );
    }
    const required = await tx.acpCheckoutSession.update({
      where: { id: session.id },
      data: { authenticationRequiredAt: new Date(), updatedAt: new Date() },
    });
    return { required };
  }
  checkResult(result);
  return { authenticated: true };
}

/** Whether the token (of this mode) charges a card that demands 3-D Secure; an unknown token is redeemToken's to refuse. */
async function cardDemandsAuthentication(tx: Db, scope: Scope, tokenId: string): Promise<boolean> {
  const token = await tx.sharedPaymentToken.findFirst({
    where: { id: tokenId, livemode: scope.livemode },
    select: { paymentMethod: true },
  });
  return token !== null && requiresAuthentication(token.paymentMethod);
}

/** A failed outcome declines; a passed one must carry details that fit the (Visa) directory server. */
function checkResult(result: AuthenticationResult): void {
  if (!PASSED.has(result.outcome)) {
    throw acpError("PAYMENT_DECLINED", `3-D Secure authentication did not pass (outcome ${result.outcome}); nothing was charged.`, {
      type: "processing_error",
      code: "payment_declined",
      param: `${RESULT_PARAM}.outcome`,
      status: 402,
    });
  }
  const details = result.outcome_details;
  if (!details) throw invalid("outcome_details is required when the outcome is " + result.outcome, "outcome_details");
  const eci = result.outcome === "authenticated" ? ECI.visa.authenticated : ECI.visa.attempt;
  if (details.electronic_commerce_indicator !== eci) {
    throw invalid(
      `electronic_commerce_indicator must be ${eci} for a Visa ${result.outcome} outcome`,
      "outcome_details.electronic_commerce_indicator",
    );
  }
  if (!/^[A-Za-z0-9+/]{27}=$/.test(details.three_ds_cryptogram)) {
    throw invalid("three_ds_cryptogram must be 20 bytes, base64-encoded (28 characters)", "outcome_details.three_ds_cryptogram");
  }
  if (!/^2\.\d+\.\d+$/.test(details.version)) throw invalid("version must be a 3-D Secure 2 version (2.x.y)", "outcome_details.version");
  if (!details.transaction_id.trim()) throw invalid("transaction_id must not be empty", "outcome_details.transaction_id");
}

function invalid(message: string, path: string) {
  return acpError("VALIDATION_ERROR", `authentication_result: ${message}.`, {
    type: "invalid_request",
    code: "invalid",
    param: `${RESULT_PARAM}.${path}`,
  });
}

/** What an open session marked authentication_required shows (spread last into its view), else nothing. */
export async function authenticationView(
  db: Db,
  session: AcpCheckoutSession,
): Promise<Partial<Pick<CheckoutSessionObject, "status" | "authentication_metadata">>> {
  if (session.status !== "open" || !session.authenticationRequiredAt) return {};
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: session.merchantId }, select: { name: true } });
  return {
    status: "authentication_required",
    authentication_metadata: {
      // 2026-01-16 requires the channel (2026-04-17 dropped it, and allows it): the test directory server's browser.
      channel: { type: "browser", browser: TEST_BROWSER },
      acquirer_details: {
        acquirer_bin: TEST_ACQUIRER_BIN,
        acquirer_country: "US",
        acquirer_merchant_id: session.merchantId.slice(0, 35),
        merchant_name: merchant.name.slice(0, 40),
      },
      directory_server: "visa",
      flow_preference: { type: "challenge", challenge: { type: "mandated" } },
    },
  };
}
