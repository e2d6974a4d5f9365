// The merchant agent's executor (docs/a2a.md): one skill, "catalog": browse the merchant's active products, and
// buy them. A purchase is a task: INPUT_REQUIRED with the terms (x402: PaymentRequired in the status message's
// metadata; AP2: a signed CartMandate artifact; AP2 v0.2: the signed checkout, ap2-v02-task.ts), then the buyer's payment in a follow-up message on the same task
// settles through lib/x402 or lib/ap2 into the one ledger (source a2a / ap2), and the task completes with its
// receipts, or fails with the extension's error code and nothing charged. What the agent asked for is kept in the
// task's metadata (TERMS_KEY), which only the agent writes, and the payment is checked against it. An AP2 payment
// whose token must wait for the payer's approval leaves the task input-required naming the request (approval-wait.ts)
// until the decision moves it on (approval-outcome.ts); a follow-up meanwhile only repeats that.
import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext, type ServerCallContext } from "@a2a-js/sdk/server";
import { z } from "zod";
import type { OpenCheckoutInput } from "../checkouts/schemas";
import { getDb, type Db } from "../db";
import { DomainError } from "../errors";
import { priceCheckout } from "../checkouts/price-items";
import type { Scope } from "../scope";
import { issueCartMandate, type CartTerms } from "../ap2/cart-mandate";
import { sha256B64url } from "../ap2/canonical";
import { MandateAwaitsApproval, MandateRefused, payMandate } from "../ap2/pay-mandate";
import { serviceReceiptOf } from "../receipts/service-receipt";
import { AP2_EXTENSION_URI, AP2_V02_EXTENSION_URI, X402_EXTENSION_URI } from "../integrations/a2a-versions";
import { offerAp2V02, settleAp2V02, type Ap2V02Terms } from "./ap2-v02-task";
import { approvalOf, awaitingApproval, stillAwaiting } from "./approval-wait";
import { agentUrl } from "./card";
import { agentMessage, AP2_KEYS, dataOf, dataPart, textOf, textPart, TERMS_KEY, withStatus, X402_KEYS } from "./protocol";
import { paymentRequiredFor, settleInTask } from "./x402-payment";

const BuyItems = z
  .array(z.object({ productId: z.string().regex(/^prd_[0-9A-Za-z]{1,64}$/), quantity: z.number().int().min(1).max(1000) }).strict())
  .min(1)
  .max(20);

type Intent =
  { kind: "browse" } | { kind: "buy"; items: z.output<typeof BuyItems> } | { kind: "invalid"; message: string } | { kind: "help" };

interface Terms {
  method: "x402" | "ap2" | Ap2V02Terms["method"];
  cart: CartTerms;
  x402?: Awaited<ReturnType<typeof paymentRequiredFor>>;
  ap2?: { jti: string; cartId: string };
  /** AP2 v0.2 (ap2-v02-task.ts): the checkout the mandates bind to. */
  checkoutId?: string;
}

/** What the buyer asks for: a data part ({ action, items }) or text ("browse", "buy prd_... 2"). */
export function intentOf(message: Message): Intent {
  for (const data of dataOf(message)) {
    const intent = (data[AP2_KEYS.intentMandate] ?? null) as { skus?: unknown } | null;
    if (intent && Array.isArray(intent.skus)) return buyIntent(intent.skus.map((productId) => ({ productId, quantity: 1 })));
    if (data.action === "browse" || data.action === "list_products") return { kind: "browse" };
    if (data.action === "buy" || data.items !== undefined) return buyIntent(data.items);
  }
  const text = textOf(message).trim();
  const buy = /\bbuy\s+(prd_[0-9A-Za-z]+)(?:\s+(?:x\s*)?(\d{1,4}))?/i.exec(text);
  if (buy) return buyIntent([{ productId: buy[1], quantity: buy[2] ? Number(buy[2]) : 1 }]);
  if (/\b(browse|catalog|catalogue|list|products|menu)\b/i.test(text)) return { kind: "browse" };
  return { kind: "help" };
}

function buyIntent(items: unknown): Intent {
  const parsed = BuyItems.safeParse(items);
  if (!parsed.success)
    return {
      kind: "invalid",
      message: `Invalid items: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".") || "items"}: ${i.message}`)
        .join("; ")}.`,
    };
  return { kind: "buy", items: parsed.data };
}

const HELP =
  "I sell this merchant's products. Send 'browse' to see the catalog, or 'buy <prd_...> [quantity]' (or a data part { action: 'buy', items: [{ productId, quantity }] }) with the x402 or AP2 extension activated to pay.";

/**
 * The status this agent decided for the message of a call. A blocking SendMessage answers with it (request-handler.ts):
 * when a concurrent payment of the same task won, the store keeps the winner's "completed" (a terminal task is never
 * overwritten) and the SDK would answer the stored state, but this buyer's own payment was refused and must say so.
 */
const outcomes = new WeakMap<ServerCallContext, Task["status"]>();

export function outcomeOf(context: ServerCallContext): Task["status"] | undefined {
  return outcomes.get(context);
}

export class MerchantAgent implements AgentExecutor {
  constructor(
    private readonly merchant: { id: string; name: string },
    private readonly scope: Scope,
  ) {}

  async cancelTask(): Promise<void> {}

  /**
   * The task's progress as A2A events (what a stream, a subscriber and a webhook see, in this order): the task
   * (submitted, or working again for a follow-up), working, then each new or changed artifact, then the outcome's
   * status (input-required with the terms, completed with the receipt, failed, ...), which also records the terms
   * in the task's metadata.
   */
  async execute(ctx: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const now = () => new Date().toISOString();
    const task: Task = ctx.task
      ? { ...ctx.task, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() } }
      : {
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: [],
          history: [ctx.userMessage],
          metadata: {},
        };
    const ids = { taskId: task.id, contextId: task.contextId };
    try {
      bus.publish(AgentEvent.task(task));
      if (!ctx.task)
        bus.publish(
          AgentEvent.statusUpdate({
            ...ids,
            status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: now() },
            metadata: undefined,
          }),
        );
      const outcome = ctx.task ? await this.followUp(ctx, ctx.task) : await this.firstTurn(ctx, task);
      const before = new Map(task.artifacts.map((a) => [a.artifactId, JSON.stringify(a)]));
      for (const artifact of outcome.artifacts)
        if (before.get(artifact.artifactId) !== JSON.stringify(artifact))
          bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact, append: false, lastChunk: true, metadata: undefined }));
      const changed = Object.entries(outcome.metadata ?? {}).filter(
        ([key, value]) => JSON.stringify(task.metadata?.[key]) !== JSON.stringify(value),
      );
      outcomes.set(ctx.context, outcome.status);
      bus.publish(
        AgentEvent.statusUpdate({ ...ids, status: outcome.status, metadata: changed.length ? Object.fromEntries(changed) : undefined }),
      );
    } catch (err) {
      // Nothing was charged (every payment is one transaction); internals stay out of the answer.
      console.error("a2a merchant agent failed", err instanceof Error ? err.message : err);
      const failed = withStatus(
        task,
        TaskState.TASK_STATE_FAILED,
        agentMessage(task, [textPart("The merchant agent failed; nothing was charged. Retry in a new task.")]),
      );
      outcomes.set(ctx.context, failed.status);
      bus.publish(AgentEvent.statusUpdate({ ...ids, status: failed.status, metadata: undefined }));
    } finally {
      bus.finished();
    }
  }

  private async firstTurn(ctx: RequestContext, task: Task): Promise<Task> {
    const intent = intentOf(ctx.userMessage);
    if (intent.kind === "help") return withStatus(task, TaskState.TASK_STATE_COMPLETED, agentMessage(task, [textPart(HELP)]));
    if (intent.kind === "invalid") return withStatus(task, TaskState.TASK_STATE_REJECTED, agentMessage(task, [textPart(intent.message)]));
    if (intent.kind === "browse") return this.browse(task);

    let cart: CartTerms;
    try {
      const priced = await priceCheckout(getDb(), this.scope, { items: intent.items } as OpenCheckoutInput);
      cart = {
        items: priced.items.map((i) => ({ productId: i.productId!, quantity: i.quantity, name: i.name, unitAmount: i.unitAmount })),
        amount: priced.amount,
        currency: priced.currency,
      };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return withStatus(task, TaskState.TASK_STATE_REJECTED, agentMessage(task, [textPart(`Cannot sell this cart: ${err.message}`)]));
    }
    const extensions = new Set(ctx.context.requestedExtensions ?? []);
    const summary = `${cart.items.map((i) => `${i.quantity} x ${i.name}`).join(", ")}: ${cart.currency} ${(cart.amount / 100).toFixed(2)}`;
    if (extensions.has(X402_EXTENSION_URI)) {
      ctx.context.addActivatedExtension(X402_EXTENSION_URI);
      if (cart.currency !== "USD")
        return withStatus(
          task,
          TaskState.TASK_STATE_REJECTED,
          agentMessage(task, [textPart(`x402 pays in USDC, so only USD carts; this one is in ${cart.currency} (pay it with AP2).`)]),
        );
      const required = await paymentRequiredFor(this.scope, cart, `${agentUrl(this.merchant.id)}#task=${task.id}`);
      if (required.accepts.length === 0)
        return withStatus(
          task,
          TaskState.TASK_STATE_REJECTED,
          agentMessage(task, [
            textPart("x402 is not payable here: the merchant has no payout address on a live network this service settles on."),
          ]),
        );
      const terms: Terms = { method: "x402", cart, x402: required };
      return withStatus(
        task,
        TaskState.TASK_STATE_INPUT_REQUIRED,
        agentMessage(task, [textPart(`Payment is required: ${summary}.`)], {
          [X402_KEYS.status]: "payment-required",
          [X402_KEYS.required]: required,
        }),
        { metadata: { ...task.metadata, [TERMS_KEY]: terms } },
      );
    }
    // AP2 v0.2 when the buyer asks for it (before v0.1, which stays for the agents that ask for it alone).
    if (extensions.has(AP2_V02_EXTENSION_URI)) {
      ctx.context.addActivatedExtension(AP2_V02_EXTENSION_URI);
      return offerAp2V02(task, this.parties(ctx), cart, summary);
    }
    if (extensions.has(AP2_EXTENSION_URI)) {
      ctx.context.addActivatedExtension(AP2_EXTENSION_URI);
      const issued = await issueCartMandate(getDb(), this.scope, this.merchant, task.id, cart, agentUrl(this.merchant.id));
      const terms: Terms = { method: "ap2", cart, ap2: { jti: issued.jti, cartId: issued.mandate.contents.id as string } };
      return withStatus(
        task,
        TaskState.TASK_STATE_INPUT_REQUIRED,
        agentMessage(task, [textPart(`Here is your cart, signed by ${this.merchant.name}: ${summary}. Pay it with a PaymentMandate.`)]),
        {
          metadata: { ...task.metadata, [TERMS_KEY]: terms },
          artifacts: [
            {
              artifactId: `cart-${issued.jti}`,
              name: "CartMandate",
              description: "The cart, signed by the merchant (AP2).",
              parts: [dataPart({ [AP2_KEYS.cartMandate]: issued.mandate })],
              metadata: undefined,
              extensions: [],
            },
          ],
        },
      );
    }
    return withStatus(
      task,
      TaskState.TASK_STATE_REJECTED,
      agentMessage(task, [
        textPart(`To buy, activate a payment extension (A2A-Extensions: ${X402_EXTENSION_URI} or ${AP2_EXTENSION_URI}).`),
      ]),
    );
  }

  /** The seller, and the buyer: the caller's merchant (serve-agent.ts's Buyer), who owns the mandates' key and token. */
  private parties(ctx: RequestContext) {
    return { scope: this.scope, merchant: this.merchant, buyerMerchantId: ctx.context.user?.userName ?? "" };
  }

  private async browse(task: Task): Promise<Task> {
    const products = await getDb().product.findMany({
      where: { merchantId: this.scope.merchantId, livemode: this.scope.livemode, active: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 100,
    });
    const catalog = products.map((p) => ({
      productId: p.id,
      name: p.name,
      description: p.description,
      unitAmount: p.unitAmount,
      currency: p.currency,
    }));
    const text = catalog.length
      ? catalog.map((p) => `${p.productId}: ${p.name}, ${p.currency} ${(p.unitAmount / 100).toFixed(2)}`).join("\n")
      : "The catalog is empty.";
    return withStatus(task, TaskState.TASK_STATE_COMPLETED, agentMessage(task, [textPart(text)]), {
      artifacts: [
        {
          artifactId: "catalog",
          name: "catalog",
          description: `${this.merchant.name}'s active products (prices in minor units).`,
          parts: [dataPart({ products: catalog })],
          metadata: undefined,
          extensions: [],
        },
      ],
    });
  }

  private async followUp(ctx: RequestContext, task: Task): Promise<Task> {
    const terms = task.metadata?.[TERMS_KEY] as Terms | undefined;
    const message = ctx.userMessage;
    if (!terms) return withStatus(task, task.status?.state ?? TaskState.TASK_STATE_COMPLETED, agentMessage(task, [textPart(HELP)]));
    const waiting = approvalOf(task);
    if (waiting) return stillAwaiting(task, waiting);
    const status = message.metadata?.[X402_KEYS.status];
    if (terms.method === "x402" && status === "payment-rejected") {
      ctx.context.addActivatedExtension(X402_EXTENSION_URI);
      return withStatus(
        task,
        TaskState.TASK_STATE_CANCELED,
        agentMessage(task, [textPart("Payment rejected by the buyer; nothing was charged.")], { [X402_KEYS.status]: "payment-rejected" }),
      );
    }
    if (terms.method === "x402" && status === "payment-submitted")
      return this.settleX402(ctx, task, terms, message.metadata?.[X402_KEYS.payload]);
    if (terms.method === "ap2_v02") {
      ctx.context.addActivatedExtension(AP2_V02_EXTENSION_URI);
      const settled = await settleAp2V02(task, this.parties(ctx), terms as Ap2V02Terms, message);
      if (settled) return settled;
    }
    const paymentMandate = dataOf(message).find((d) => d[AP2_KEYS.paymentMandate] !== undefined);
    if (terms.method === "ap2" && paymentMandate) {
      const cartMandate = dataOf(message).find((d) => d[AP2_KEYS.cartMandate] !== undefined)?.[AP2_KEYS.cartMandate];
      return this.settleAp2(ctx, task, paymentMandate[AP2_KEYS.paymentMandate], cartMandate);
    }
    const expected =
      terms.method === "x402"
        ? `a message with metadata ${X402_KEYS.status}: "payment-submitted" and ${X402_KEYS.payload}`
        : terms.method === "ap2"
          ? `a data part ${AP2_KEYS.paymentMandate}`
          : "data parts ap2.mandates.CheckoutMandateSdJwt and ap2.mandates.PaymentMandateSdJwt";
    return withStatus(
      task,
      TaskState.TASK_STATE_INPUT_REQUIRED,
      agentMessage(task, [textPart(`Still waiting for the payment: send ${expected}.`)], task.status?.message?.metadata),
    );
  }

  private async settleX402(ctx: RequestContext, task: Task, terms: Terms, payload: unknown): Promise<Task> {
    ctx.context.addActivatedExtension(X402_EXTENSION_URI);
    const result = await settleInTask(this.scope, task.id, terms.cart, terms.x402!, payload);
    if (!result.ok && result.reason === "settlement_pending") {
      // Sent on chain, not confirmed yet: the task waits for the same payment to be sent again (never failed: it may be paid).
      return withStatus(
        task,
        TaskState.TASK_STATE_INPUT_REQUIRED,
        agentMessage(task, [textPart(`Payment submitted and being settled on chain: ${result.message}`)], {
          ...task.status?.message?.metadata,
          [X402_KEYS.status]: "payment-submitted",
          [X402_KEYS.receipts]: [result.receipt],
        }),
      );
    }
    if (!result.ok) {
      return withStatus(
        task,
        TaskState.TASK_STATE_FAILED,
        agentMessage(task, [textPart(`Payment failed (${result.code}): ${result.message}`)], {
          [X402_KEYS.status]: "payment-failed",
          [X402_KEYS.error]: result.code,
          [X402_KEYS.receipts]: [result.receipt],
        }),
      );
    }
    // The x402 receipt carries the service's signed receipt of the payment beside the settle response (docs/receipts.md).
    const receipt = { ...result.receipt, ...(await serviceReceiptOf(getDb(), result.paymentIntentId)) };
    return withStatus(
      task,
      TaskState.TASK_STATE_COMPLETED,
      agentMessage(task, [textPart(`Payment completed. Order ${result.orderId}.`)], {
        [X402_KEYS.status]: "payment-completed",
        [X402_KEYS.receipts]: [receipt],
      }),
      { artifacts: [...task.artifacts, orderArtifact(result.orderId, result.paymentIntentId, terms.cart)] },
    );
  }

  private async settleAp2(ctx: RequestContext, task: Task, paymentMandate: unknown, cartMandate: unknown): Promise<Task> {
    ctx.context.addActivatedExtension(AP2_EXTENSION_URI);
    const url = agentUrl(this.merchant.id);
    const iat = Math.floor(Date.now() / 1000);
    const reference = sha256B64url(paymentMandate ?? null);
    try {
      const paid = await payMandate(this.scope, { taskId: task.id, agentUrl: url, cartMandate, paymentMandate });
      return await ap2V01Completed(getDb(), task, url, reference, paid);
    } catch (err) {
      if (err instanceof MandateAwaitsApproval) return awaitingApproval(task, err.request);
      if (!(err instanceof MandateRefused)) throw err;
      const receipt = { status: "Error", iss: url, iat, reference, payment_id: "", error: err.code, error_description: err.message };
      return withStatus(
        task,
        TaskState.TASK_STATE_FAILED,
        agentMessage(task, [textPart(`Payment refused (${err.code}): ${err.message}`), dataPart({ [AP2_KEYS.paymentReceipt]: receipt })]),
        {
          artifacts: [
            ...task.artifacts,
            {
              artifactId: "payment-receipt",
              name: "PaymentReceipt",
              description: "AP2 payment receipt (refused).",
              parts: [dataPart({ [AP2_KEYS.paymentReceipt]: receipt })],
              metadata: undefined,
              extensions: [],
            },
          ],
        },
      );
    }
  }
}

/** AP2 v0.1 completed: the PaymentReceipt (and the service's receipt) and the order (also when an approval paid it). */
export async function ap2V01Completed(
  db: Db,
  task: Task,
  url: string,
  reference: string,
  paid: { paymentIntentId: string; orderId: string },
): Promise<Task> {
  const receipt = {
    status: "Success",
    iss: url,
    iat: Math.floor(Date.now() / 1000),
    reference,
    payment_id: paid.paymentIntentId,
    psp_confirmation_id: paid.paymentIntentId,
    network_confirmation_id: paid.orderId,
    ...(await serviceReceiptOf(db, paid.paymentIntentId)),
  };
  const cart = (task.metadata?.[TERMS_KEY] as Terms).cart;
  return withStatus(
    task,
    TaskState.TASK_STATE_COMPLETED,
    agentMessage(task, [textPart(`Payment completed. Order ${paid.orderId}.`), dataPart({ [AP2_KEYS.paymentReceipt]: receipt })]),
    {
      artifacts: [
        ...task.artifacts,
        {
          artifactId: "payment-receipt",
          name: "PaymentReceipt",
          description: "AP2 payment receipt.",
          parts: [dataPart({ [AP2_KEYS.paymentReceipt]: receipt })],
          metadata: undefined,
          extensions: [],
        },
        orderArtifact(paid.orderId, paid.paymentIntentId, cart),
      ],
    },
  );
}

function orderArtifact(orderId: string, paymentIntentId: string, cart: CartTerms) {
  return {
    artifactId: "order",
    name: "order",
    description: "The order this purchase made.",
    parts: [dataPart({ orderId, paymentIntentId, amount: cart.amount, currency: cart.currency, items: cart.items })],
    metadata: undefined,
    extensions: [],
  };
}
