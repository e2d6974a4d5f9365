// The payments CSV export of the dashboard (GET /api/dashboard/payments/export): the signed-in merchant's
// payments of its mode, filtered as the page is, amounts in the currency's decimals, payment methods in
// words, and a payer-chosen billing name that a spreadsheet would run as a formula made inert; streamed a
// page at a time, every row once and in order across pages.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { capture, openCheckout } from "../helpers/payments";

const FORMULA_NAME = `=HYPERLINK("http://evil.example","Jane")`;

let m: DashboardMerchant;
let other: DashboardMerchant;
let db: pg.Client;
let byApi: string;
let byPayPage: string;

/** Pays a checkout through the hosted pay page's form, as a browser without JavaScript posts it. */
async function payOnPayPage(checkoutId: string, name: string) {
  const html = await (await fetch(`${baseUrl()}/pay/${checkoutId}`)).text();
  const formToken = /name="formToken" value="([^"]+)"/.exec(html)?.[1];
  expect(formToken).toBeTruthy();
  const res = await fetch(`${baseUrl()}/pay/${checkoutId}/submit`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: baseUrl() },
    body: new URLSearchParams({
      formToken: formToken!,
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 34",
      cvc: "123",
      name,
      billingCountry: "GB",
    }),
  });
  expect(res.status).toBe(303);
}

async function exportCsv(merchant: DashboardMerchant | null, query = "") {
  const res = await fetch(`${baseUrl()}/api/dashboard/payments/export${query}`, {
    headers: merchant ? { Cookie: merchant.session.cookie } : {},
  });
  return { res, text: await res.text() };
}

/** RFC 4180 rows (quoted fields with "" escapes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trimEnd().split("\r\n")) {
    const fields: string[] = [];
    for (const match of line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g))
      fields.push(match[1].startsWith('"') ? match[1].slice(1, -1).replace(/""/g, '"') : match[1]);
    rows.push(fields);
  }
  return rows;
}

beforeAll(async () => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  [m, other] = await Promise.all([dashboardMerchant("Export Espresso"), dashboardMerchant("Someone Else")]);
  const first = await openCheckout(m.key, { amount: 1250, currency: "usd" });
  expect((await capture(m.key, first.id)).status).toBe(200);
  byApi = first.paymentIntentId;
  const second = await openCheckout(m.key, { amount: 1500, currency: "jpy" });
  await payOnPayPage(second.id, FORMULA_NAME);
  byPayPage = second.paymentIntentId;
  await openCheckout(other.key, { amount: 999, currency: "usd" });
});

afterAll(() => db?.end());

describe("payments CSV export", () => {
  it("lists the merchant's payments, newest first, as a spreadsheet reads them", async () => {
    const { res, text } = await exportCsv(m);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="payments-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
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
    ]);
    expect(rows.map((row) => row[0])).toEqual([byPayPage, byApi]);
    const [paidOnPage, paidByApi] = rows;
    expect(paidByApi.slice(2, 8)).toEqual(["12.50", "0.00", "USD", "captured", "api", "Visa •••• 4242"]);
    expect(paidOnPage.slice(2, 5)).toEqual(["1500", "0", "JPY"]); // a currency without decimals
    expect(paidOnPage[9]).toBe("GB");
    expect(res.headers.get("x-export-rows")).toBe("2");
  });

  it("makes a payer's formula-like billing name inert (CSV injection)", async () => {
    const { text } = await exportCsv(m);
    const row = parseCsv(text).find((fields) => fields[0] === byPayPage)!;
    expect(row[8]).toBe(`'${FORMULA_NAME}`);
    // The API keeps the name as given.
    expect((await call("GET", `/v1/payment_intents/${byPayPage}`, { key: m.key })).body.billingDetails).toEqual({
      name: FORMULA_NAME,
      country: "GB",
    });
  });

  it("applies the page's filters, ignores unknown values, and never shows another merchant's payments", async () => {
    expect(parseCsv((await exportCsv(m, "?status=failed")).text)).toHaveLength(1); // the header only
    expect(parseCsv((await exportCsv(m, "?status=bogus&source=nope")).text)).toHaveLength(3);
    const others = parseCsv((await exportCsv(other)).text);
    expect(others).toHaveLength(2);
    expect(others[1][0]).not.toBe(byApi);
  });

  it("streams more than one page (1,000 rows a page): every payment once, newest first, ties in id order", async () => {
    const bulk = await dashboardMerchant("Bulk Beans");
    const first = await openCheckout(bulk.key, { amount: 500, currency: "usd" });
    const [{ merchant_id: merchantId }] = (await db.query("SELECT merchant_id FROM payment_intents WHERE id = $1", [first.paymentIntentId]))
      .rows;
    // 2,500 more, three to a millisecond (rows sharing created_at are ordered by id, across page ends too), older
    // than the one made through the API; and a live-mode one, which a test-mode export never shows.
    await db.query(
      `INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source, billing_name, created_at)
       SELECT 'pi_bulk' || lpad(g::text, 5, '0'), $1, g = 0, 'captured', g + 1, g + 1, 'USD', 'api',
              CASE WHEN g % 500 = 1 THEN '@SUM(A1)' END, now() - interval '1 hour' - (g / 3) * interval '1 millisecond'
         FROM generate_series(0, 2500) g`,
      [merchantId],
    );
    const expected = (
      await db.query(`SELECT id FROM payment_intents WHERE merchant_id = $1 AND NOT livemode ORDER BY created_at DESC, id DESC`, [
        merchantId,
      ])
    ).rows.map((row) => row.id as string);
    expect(expected).toHaveLength(2501);

    const { res, text } = await exportCsv(bulk);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-export-rows")).toBe("2501");
    expect(res.headers.get("x-export-truncated")).toBe("false");
    expect(res.headers.get("content-length")).toBeNull(); // streamed, not built whole
    const [header, ...rows] = parseCsv(text);
    expect(header[0]).toBe("id");
    const ids = rows.map((row) => row[0]);
    expect(ids).toEqual(expected); // the order, and each row exactly once
    expect(new Set(ids).size).toBe(2501);
    expect(ids[0]).toBe(first.paymentIntentId);
    const createdAt = rows.map((row) => row[1]);
    expect(createdAt).toEqual([...createdAt].sort().reverse());
    expect(rows.find((row) => row[0] === "pi_bulk00001")!.slice(2, 9)).toEqual(["0.02", "0.00", "USD", "captured", "api", "", "'@SUM(A1)"]);
    // The filters apply on every page: 750 of them, once their source says pay_page.
    await db.query(
      `UPDATE payment_intents SET source = 'pay_page' WHERE merchant_id = $1 AND id LIKE 'pi_bulk%' AND right(id, 1) IN ('1', '4', '7')`,
      [merchantId],
    );
    const paid = await exportCsv(bulk, "?source=pay_page");
    const paidIds = parseCsv(paid.text)
      .slice(1)
      .map((row) => row[0]);
    expect(paid.res.headers.get("x-export-rows")).toBe(String(paidIds.length));
    expect(paidIds).toEqual(expected.filter((id) => /^pi_bulk\d{4}[147]$/.test(id)));
  });

  it("is 401 without a dashboard session", async () => {
    const { res } = await exportCsv(null);
    expect(res.status).toBe(401);
  });

  it("the API lists a customer's payments (?customerId=)", async () => {
    const customer = await call("POST", "/v1/customers", { key: m.key, body: { name: "Wallet payer" } });
    await call("POST", `/v1/customers/${customer.body.id}/fund`, { key: m.key, body: { amount: 5000, currency: "usd" } });
    const checkout = await openCheckout(m.key, { amount: 700, currency: "usd" });
    expect((await capture(m.key, checkout.id, customer.body.id)).status).toBe(200);
    const list = await call("GET", `/v1/payment_intents?customerId=${customer.body.id}`, { key: m.key });
    expect(list.body.data.map((pi: { id: string }) => pi.id)).toEqual([checkout.paymentIntentId]);
  });
});
