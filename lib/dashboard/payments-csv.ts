// "Export CSV" of the payments page: every PaymentIntent the page's filters match, newest first, as a
// spreadsheet reads it (amounts in the currency's decimals, times in UTC ISO 8601, payment methods in
// words). Read through listPaymentIntents, page by page, so the rows are exactly what the API lists.
import type { Db } from "../db";
import { currencyDigits } from "../money/format";
import { describePaymentMethod } from "../payments/describe-payment-method";
import type { ListPaymentIntentsInput } from "../payments/schemas";
import type { Scope } from "../scope";
import { listPaymentIntents } from "../checkouts/read-orders-and-payments";

/** At most this many rows in one file (100 pages of the API's largest page). */
export const MAX_EXPORT_ROWS = 10_000;

const HEADER = [
  "id",
  "created_utc",
  "amount",
  "amount_refunded",
  "currency",
  "status",
  "source",
  "payment_method",
  "billing_name",
  "billing_country",
  "order_id",
  "customer_id",
];

/**
 * One CSV field. A payer chose the billing name: a value a spreadsheet would run as a formula
 * (= + - @, tab, CR) is prefixed with ' (CSV injection), then quoted when it holds a comma, quote or newline.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const decimal = (minor: number, currency: string) => (minor / 10 ** currencyDigits(currency)).toFixed(currencyDigits(currency));

export async function paymentsCsv(
  db: Db,
  scope: Scope,
  filters: Pick<ListPaymentIntentsInput, "status" | "source">,
): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const lines = [HEADER.join(",")];
  let startingAfter: string | undefined;
  for (;;) {
    const page = await listPaymentIntents(db, scope, { ...filters, limit: 100, ...(startingAfter ? { startingAfter } : {}) });
    for (const pi of page.data) {
      lines.push(
        [
          pi.id,
          pi.createdAt,
          decimal(pi.amount, pi.currency),
          decimal(pi.amountRefunded, pi.currency),
          pi.currency,
          pi.status,
          pi.source,
          pi.paymentMethod ? describePaymentMethod(pi.paymentMethod).label : null,
          pi.billingDetails.name,
          pi.billingDetails.country,
          pi.orderId,
          pi.customerId,
        ]
          .map(csvField)
          .join(","),
      );
    }
    const rows = lines.length - 1;
    if (!page.hasMore || rows >= MAX_EXPORT_ROWS) return { csv: `${lines.join("\r\n")}\r\n`, rows, truncated: page.hasMore };
    startingAfter = page.data.at(-1)!.id;
  }
}
