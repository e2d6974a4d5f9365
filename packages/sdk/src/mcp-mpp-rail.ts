// MPP over MCP for paywall() (docs/sdk.md "MPP and x402 over MCP"), as mppx/mcp-sdk defines it: mppx's own server
// (Mppx.create with the SDK's `service` method, serviceServerMethod) issues and checks the challenges, reading the
// credential from the request's `_meta["org.paymentauth/credential"]` and putting the receipt in the result's
// `_meta["org.paymentauth/receipt"]` (mppx's mcpSdk transport). One change to that transport: the challenge is
// answered as data for ONE tool result (paywall() puts it in `_meta["org.paymentauth/payment-required"]` beside
// the gate), never as the JSON-RPC -32042 error; mppx/mcp-sdk/client's McpClient reads either.
//
// mppx checks what only this server can (the challenge's HMAC under `secretKey`, its expiry, that it is this tool's:
// amount, currency, recipient and the sku as its scope); POST /mpp/verify (the merchant's key) settles the shared
// payment token once into a captured PaymentIntent and answers a credential it settled before with that same
// settlement; paywall() then redeems the PaymentIntent once (already_redeemed after).
import { Mcp } from "mppx";
import { Mppx, Transport } from "mppx/server";
import { ServiceClient } from "./client";
import { serviceServerMethod } from "./mpp-method";
import type { McpPaymentRail, McpRailFactory, McpRailOutcome } from "./paywall-mcp-rails";
import { failureRefunds } from "./paywall-refund";
import { keyMode } from "./service-link";
import type { FetchLike } from "./transport";

export interface MppOverMcpOptions {
  /** The service's address. */
  baseUrl: string;
  /** The MERCHANT's key: POST /mpp/verify settles into its ledger (and a failed call is refunded with it). */
  apiKey: string;
  /**
   * The HMAC key of this server's challenges (at least 32 bytes): the same in every process that serves the tool,
   * so a challenge one issued is paid at another. Keep it secret: it is what makes a challenge this server's.
   */
  secretKey: string;
  /** The challenges' realm (default "mcp"): the name payers see. */
  realm?: string;
  fetch?: FetchLike;
}

/** What the tool-result transport answers for a challenge: mppx's payment-required data (`challenges`, and `problem` when refused). */
interface PaymentRequiredData {
  httpStatus: number;
  challenges: unknown[];
  problem?: { type?: string; title?: string; detail?: string };
}

/** mppx's mcpSdk transport, answering a challenge as data for a tool result instead of throwing McpError(-32042). */
function toolResultTransport() {
  const sdk = Transport.mcpSdk();
  return Transport.from<Parameters<typeof sdk.getCredential>[0], PaymentRequiredData, Parameters<typeof sdk.respondReceipt>[0]["response"]>(
    {
      ...sdk,
      respondChallenge: ({ challenge, error }) => ({
        httpStatus: error?.status ?? 402,
        challenges: [challenge],
        ...(error ? { problem: error.toProblemDetails(challenge.id) } : {}),
      }),
    },
  );
}

/** paywall({ ..., mpp: mppOverMcp({ baseUrl, apiKey, secretKey }) }): the tool also takes MPP over MCP. */
export function mppOverMcp(options: MppOverMcpOptions): McpRailFactory {
  if (!options || typeof options.baseUrl !== "string" || typeof options.apiKey !== "string")
    throw new TypeError("mppOverMcp: { baseUrl, apiKey } are required (the service and the merchant's key).");
  if (typeof options.secretKey !== "string" || Buffer.byteLength(options.secretKey) < 32)
    throw new TypeError("mppOverMcp: secretKey must be a secret of at least 32 bytes, the same in every process.");
  const client = new ServiceClient({ timeoutMs: 10_000, baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch });
  const mppx = Mppx.create({
    methods: [serviceServerMethod({ client })],
    secretKey: options.secretKey,
    realm: options.realm ?? "mcp",
    transport: toolResultTransport(),
  });

  return (terms, name): McpPaymentRail => {
    // The tool's terms: the amount, currency and merchant are pinned by mppx, the sku by the challenge's scope.
    const charge = mppx.charge({
      amount: String(terms.price),
      currency: terms.currency.toLowerCase(),
      recipient: terms.merchantId,
      externalId: terms.sku,
      description: terms.sku,
      scope: terms.sku,
    });
    const required = (data: PaymentRequiredData) => ({ [Mcp.paymentRequiredMetaKey]: data });
    return {
      name: "mpp",
      credentialKey: Mcp.credentialMetaKey,
      requiredKey: Mcp.paymentRequiredMetaKey,
      async paymentRequired() {
        const result = await charge({ _meta: {} });
        if (result.status !== 402) throw new Error("mppOverMcp: a call without a credential was not answered with a challenge.");
        return required(result.challenge);
      },
      async settle(_payment, requestMeta): Promise<McpRailOutcome> {
        const result = await charge({ _meta: requestMeta });
        if (result.status === 402) {
          const problem = result.challenge.problem ?? {};
          const reason = problem.type?.split("/").pop() || "payment_required";
          return { kind: "refused", reason, ...(problem.detail ? { message: problem.detail } : {}), meta: required(result.challenge) };
        }
        // The receipt mppx made from POST /mpp/verify's answer: reference = the captured PaymentIntent.
        const meta = (result.withReceipt({ content: [] }) as { _meta: Record<string, unknown> })._meta;
        const receipt = meta[Mcp.receiptMetaKey] as { reference?: unknown } | undefined;
        if (typeof receipt?.reference !== "string") throw new Error("mppOverMcp: the settlement named no PaymentIntent.");
        return { kind: "paid", paymentIntentId: receipt.reference, meta: { [Mcp.receiptMetaKey]: meta[Mcp.receiptMetaKey] } };
      },
      refunds: failureRefunds(client, name),
      mode: keyMode(options.apiKey),
    };
  };
}
