// AP2 v0.2 mandate content checks (the AP2 specification's checkout and payment mandates): the closed mandates
// against the checkout this merchant signed, the claims the buyer signed carried unchanged, and the open
// mandates' constraints, each evaluated as the spec defines it; an unknown constraint fails (unresolved_constraint).
// Budget and recurrence count past charges, so they are only read here (budgetOf) and counted in pay.ts.
import { isDeepStrictEqual } from "node:util";
import type { Ap2Checkout } from "../../generated/prisma/client";
import { refused } from "./sd-jwt-chain";

type Claims = Record<string, unknown>;
const NOT_CARRIED = new Set(["vct", "constraints", "cnf", "iat", "exp", "_sd", "_sd_alg"]);
const SPT = /^spt_[0-9A-Za-z]{1,64}$/;
export const VCT = {
  checkout: "mandate.checkout.1",
  openCheckout: "mandate.checkout.open.1",
  payment: "mandate.payment.1",
  openPayment: "mandate.payment.open.1",
} as const;

const obj = (v: unknown): Claims => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Claims) : {});
/** The revealed elements of a selectively disclosable array (undisclosed ones stay `{"...": digest}`). */
const revealed = (v: unknown): Claims[] => (Array.isArray(v) ? v.map(obj).filter((e) => !("..." in e) && Object.keys(e).length > 0) : []);
const unmet = (reason: string, message: string) => refused("invalid_mandate", reason, message);

function merchantMatches(candidate: Claims, merchant: { id: string; name: string; website: string }): boolean {
  if (typeof candidate.id === "string") return candidate.id === merchant.id;
  return candidate.name === merchant.name && candidate.website === merchant.website;
}

/** The buyer's signed claims reach the closed mandate unchanged ("Verification and Processing Rules" step 2). */
function carriedUnchanged(root: Claims, closed: Claims, label: string): void {
  for (const [k, v] of Object.entries(root)) {
    if (!NOT_CARRIED.has(k) && !isDeepStrictEqual(closed[k], v))
      throw unmet("claim_changed", `The closed ${label} changes the claim ${k} the buyer signed.`);
  }
}

/** checkout.line_items: a maximal flow from constraint entries to the checkout's items equals both totals. */
function lineItemsMet(constraint: Claims, items: { productId: string; quantity: number }[]): boolean {
  const reqs = (Array.isArray(constraint.items) ? constraint.items : []).map(obj);
  const want = reqs.map((r) => (Number.isInteger(r.quantity) && (r.quantity as number) > 0 ? (r.quantity as number) : 0));
  const have = new Map<string, number>();
  for (const i of items) have.set(i.productId, (have.get(i.productId) ?? 0) + i.quantity);
  const ids = [...have.keys()];
  const edges = reqs.map((r) => new Set(revealed(r.acceptable_items).map((a) => String(a.id))));
  const left = [...want];
  const right = ids.map((id) => have.get(id)!);
  const flow = reqs.map(() => ids.map(() => 0));
  // Augmenting paths over the residual graph (source -> requirement -> item -> sink); the graphs are tiny.
  const augment = (): boolean => {
    const prev = new Map<string, string>();
    const queue = reqs.map((_, r) => `r${r}`).filter((_, r) => left[r] > 0);
    queue.forEach((n) => prev.set(n, "s"));
    while (queue.length) {
      const node = queue.shift()!;
      const idx = Number(node.slice(1));
      if (node[0] === "r") {
        ids.forEach((id, i) => {
          if (edges[idx].has(id) && !prev.has(`i${i}`)) {
            prev.set(`i${i}`, node);
            queue.push(`i${i}`);
          }
        });
      } else {
        if (right[idx] > 0) {
          let amount = right[idx];
          for (let n = node; prev.get(n) !== "s"; n = prev.get(n)!) {
            const p = prev.get(n)!;
            if (p[0] === "i") amount = Math.min(amount, flow[Number(n.slice(1))][Number(p.slice(1))]);
          }
          let start = node;
          while (prev.get(start) !== "s") start = prev.get(start)!;
          amount = Math.min(amount, left[Number(start.slice(1))]);
          for (let n = node; prev.get(n) !== "s"; n = prev.get(n)!) {
            const p = prev.get(n)!;
            if (p[0] === "r") flow[Number(p.slice(1))][Number(n.slice(1))] += amount;
            else flow[Number(n.slice(1))][Number(p.slice(1))] -= amount;
          }
          left[Number(start.slice(1))] -= amount;
          right[idx] -= amount;
          return true;
        }
        reqs.forEach((_, r) => {
          if (flow[r][idx] > 0 && !prev.has(`r${r}`)) {
            prev.set(`r${r}`, node);
            queue.push(`r${r}`);
          }
        });
      }
    }
    return false;
  };
  while (augment());
  return left.every((q) => q === 0) && right.every((q) => q === 0);
}

export interface CheckoutContext {
  checkout: Ap2Checkout;
  merchant: { id: string; name: string; website: string };
}

/** The closed Checkout Mandate is for this checkout, and what the buyer signed allows it. */
export function checkCheckoutMandate(root: Claims, closed: Claims, ctx: CheckoutContext): void {
  if (closed.vct !== VCT.checkout) throw unmet("invalid_vct", `The closed checkout mandate's vct must be ${VCT.checkout}.`);
  if (closed.checkout_jwt !== ctx.checkout.checkoutJwt || closed.checkout_hash !== ctx.checkout.checkoutHash)
    throw unmet("checkout_mismatch", "The checkout mandate is not for this checkout (checkout_jwt, checkout_hash).");
  if (root.vct === VCT.checkout) return carriedUnchanged(root, closed, "checkout mandate");
  if (root.vct !== VCT.openCheckout) throw unmet("invalid_vct", "The buyer-signed checkout mandate has an unknown vct.");
  carriedUnchanged(root, closed, "checkout mandate");
  const items = ctx.checkout.items as { productId: string; quantity: number }[];
  for (const c of (Array.isArray(root.constraints) ? root.constraints : []).map(obj)) {
    if (c.type === "checkout.allowed_merchants") {
      if (!revealed(c.allowed).some((m) => merchantMatches(m, ctx.merchant)))
        throw unmet("merchant_not_allowed", "This merchant is not among the open checkout mandate's allowed merchants.");
    } else if (c.type === "checkout.line_items") {
      if (!lineItemsMet(c, items))
        throw unmet("line_items_not_allowed", "The checkout's items do not meet the open checkout mandate's line_items.");
    } else {
      throw refused("unresolved_constraint", "unknown_constraint", `Unknown checkout constraint ${String(c.type)}.`);
    }
  }
}

export interface PaymentTerms {
  token: string;
  /** Counted in pay.ts: the budget (minor units) and the recurrence, when the open mandate sets them. */
  budget: { limit: number; currency: string } | null;
  recurrence: { frequency: string; maxOccurrences: number | null } | null;
  open: boolean;
}

/** The closed Payment Mandate pays this checkout, and what the buyer signed allows it; returns what pay.ts counts. */
export function checkPaymentMandate(root: Claims, closed: Claims, ctx: CheckoutContext & { checkoutRootHash: string }): PaymentTerms {
  if (closed.vct !== VCT.payment) throw unmet("invalid_vct", `The closed payment mandate's vct must be ${VCT.payment}.`);
  const c = ctx.checkout;
  if (closed.transaction_id !== c.checkoutHash) throw unmet("transaction_mismatch", "transaction_id must be the checkout's checkout_hash.");
  if (!merchantMatches(obj(closed.payee), ctx.merchant)) throw unmet("payee_mismatch", "payee must be this merchant.");
  const amount = obj(closed.payment_amount);
  if (amount.amount !== c.amount || String(amount.currency).toUpperCase() !== c.currency)
    throw unmet("amount_mismatch", `payment_amount must be the checkout's total ${c.amount} ${c.currency} (minor units).`);
  const instrument = obj(closed.payment_instrument);
  if (instrument.type !== "shared_payment_token" || !SPT.test(String(instrument.id)))
    throw unmet("invalid_payment_instrument", 'payment_instrument must be { type: "shared_payment_token", id: "spt_..." }.');
  const terms: PaymentTerms = { token: String(instrument.id), budget: null, recurrence: null, open: root.vct === VCT.openPayment };
  carriedUnchanged(root, closed, "payment mandate");
  if (root.vct === VCT.payment) return terms;
  if (root.vct !== VCT.openPayment) throw unmet("invalid_vct", "The buyer-signed payment mandate has an unknown vct.");
  const constraints = (Array.isArray(root.constraints) ? root.constraints : []).map(obj);
  for (const k of constraints) {
    switch (k.type) {
      case "payment.amount_range":
        if (
          String(k.currency).toUpperCase() !== c.currency ||
          c.amount > Number(k.max) ||
          (k.min !== undefined && c.amount < Number(k.min))
        )
          throw unmet("amount_out_of_range", "The amount is outside the open payment mandate's amount_range.");
        break;
      case "payment.allowed_payees":
        if (!revealed(k.allowed).some((m) => merchantMatches(m, ctx.merchant)))
          throw unmet("merchant_not_allowed", "This merchant is not among the open payment mandate's allowed payees.");
        break;
      case "payment.allowed_payment_instruments":
        if (!revealed(k.allowed).some((i) => i.id === instrument.id && i.type === instrument.type))
          throw unmet("instrument_not_allowed", "The payment instrument is not among the open payment mandate's allowed ones.");
        break;
      case "payment.execution_date": {
        const at = typeof closed.execution_date === "string" ? Date.parse(closed.execution_date) : Date.now();
        if ((k.not_before && at < Date.parse(String(k.not_before))) || (k.not_after && at > Date.parse(String(k.not_after))))
          throw unmet("outside_execution_date", "The payment is outside the open payment mandate's execution_date window.");
        break;
      }
      case "payment.reference":
        if (k.conditional_transaction_id !== ctx.checkoutRootHash)
          throw unmet("reference_mismatch", "The checkout mandate is not the one the open payment mandate references.");
        break;
      case "payment.budget":
        if (String(k.currency).toUpperCase() !== c.currency) throw unmet("budget_currency_mismatch", "The budget is in another currency.");
        terms.budget = { limit: Math.round(Number(k.max) * 100), currency: c.currency };
        break;
      case "payment.agent_recurrence":
        terms.recurrence = {
          frequency: String(k.frequency),
          maxOccurrences: Number.isInteger(k.max_occurrences) ? (k.max_occurrences as number) : null,
        };
        break;
      default:
        throw refused("unresolved_constraint", "unknown_constraint", `Unknown payment constraint ${String(k.type)}.`);
    }
  }
  if (terms.recurrence && (!terms.budget || !constraints.some((k) => k.type === "payment.amount_range")))
    throw unmet("recurrence_without_budget", "payment.agent_recurrence needs payment.budget and payment.amount_range.");
  return terms;
}
