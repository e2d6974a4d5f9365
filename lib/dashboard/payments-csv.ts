// "Export CSV" of the payments page: every PaymentIntent the page's filters match, newest first, as a
// spreadsheet reads it (amounts in the currency's decimals, times in UTC ISO 8601, payment methods in
// words). The rows are exactly what listPaymentIntents lists, read page by page along the list's index with a
// keyset cursor (the last row's createdAt and id, no lookup), and streamed: memory stays one page whatever the
// file's size. Up to MAX_EXPORT_ROWS; a longer list is cut there and says so (X-Export-Truncated).
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { currencyDigits } from "../money/format";
import type { ListPosition } from "../pagination";
import { describePaymentMethod } from "../payments/describe-payment-method";
import type { Scope } from "../scope";
import { countPaymentIntents, paymentIntentsFrom, type PaymentIntentFilters } from "../checkouts/read-orders-and-payments";

/** At most this many rows in one file (a spreadsheet opens it; the rest is cut and the response says so). */
export const MAX_EXPORT_ROWS = 100_000;

/** Rows read in one statement (and sent as one chunk). */
export const EXPORT_PAGE_ROWS = 1_000;

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

/** Decimals per currency, asked of Intl once each (an Intl.NumberFormat a field would cost most of a row's time). */
const digitsByCurrency = new Map<string, number>();

function decimal(minor: number, currency: string): string {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) digitsByCurrency.set(currency, (digits = currencyDigits(currency)));
  return (minor / 10 ** digits).toFixed(digits);
}

type PaymentIntentRow = Awaited<ReturnType<typeof paymentIntentsFrom>>[number];

function csvLine(pi: PaymentIntentRow): string {
  return [
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
    .join(",");
}

export interface PaymentsCsv {
  /** Rows the file holds (at most MAX_EXPORT_ROWS), counted before it streams. */
  rows: number;
  /** The list has more rows than the file. */
  truncated: boolean;
  /** The file: the header line, then one chunk a page. */
  body: ReadableStream<Uint8Array>;
}

/**
 * The export of the scope's PaymentIntents these filters match, at most `maxRows`. Counts first (at most one more, one
 * statement along the index: the response's headers need the count before the body), then streams them newest
 * first from the newest counted row on, so a payment made during the download is not in the file and the rows
 * counted are the rows sent. A row leaving the filter meanwhile (a status filter, a PaymentIntent changing
 * status) can make the file shorter than the count; never longer.
 *
 * `db` must be the pool, never a transaction: the body is read after the route handler returned, each page its own
 * statement on a connection of its own (scoped by `scope`, authorised by the caller before this call). A
 * page that fails ends the download with an error (the headers are sent by then), logged here.
 */
export async function paymentsCsv(db: Db, scope: Scope, filters: PaymentIntentFilters, maxRows = MAX_EXPORT_ROWS): Promise<PaymentsCsv> {
  const counted = await countPaymentIntents(db, scope, filters, maxRows + 1);
  const rows = Math.min(counted.rows, maxRows);
  let left = rows;
  let position: ListPosition = counted.newest && { at: counted.newest };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`${HEADER.join(",")}\r\n`));
      if (left === 0) controller.close();
    },
    // Called when the client has taken what was sent: one page in memory at a time, none after a cancel.
    async pull(controller) {
      const take = Math.min(EXPORT_PAGE_ROWS, left);
      let page: PaymentIntentRow[];
      try {
        page = await paymentIntentsFrom(db, scope, filters, position, take);
      } catch (err) {
        logUnlessDatabaseDown("payments CSV export:", err);
        throw err;
      }
      if (page.length > 0) controller.enqueue(encoder.encode(page.map((pi) => `${csvLine(pi)}\r\n`).join("")));
      left -= page.length;
      const last = page.at(-1);
      if (left === 0 || page.length < take || !last) return controller.close();
      position = { after: { id: last.id, createdAt: new Date(last.createdAt) } };
    },
  });
  return { rows, truncated: counted.rows > maxRows, body };
}
