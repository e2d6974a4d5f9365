// The payments CSV export's stream (lib/dashboard/payments-csv.ts) below HTTP: a list longer than the cap is cut
// at it and says so, the rows sent are the rows counted (a payment made during the download is not in the file),
// and a reader that cancels ends it.
import { describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { EXPORT_PAGE_ROWS, paymentsCsv } from "../../lib/dashboard/payments-csv";
import { createTestMerchant } from "../helpers/merchants";

/** `count` captured test-mode PaymentIntents of the merchant, pi_<tag>0001 the newest, a millisecond apart. */
async function seed(merchantId: string, tag: string, count: number) {
  await getDb().$executeRaw`
    INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source, created_at)
    SELECT 'pi_' || ${tag} || lpad(g::text, 4, '0'), ${merchantId}, false, 'captured', 100, 100, 'USD', 'api',
           now() - interval '1 minute' - g * interval '1 millisecond'
      FROM generate_series(1, ${count}::int) g`;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<string[]> {
  const text = await new Response(body).text();
  return text.trimEnd().split("\r\n");
}

describe("payments CSV stream", () => {
  it("cuts a longer list at the cap, across pages, and says so", async () => {
    const { merchantId } = await createTestMerchant("Export cap");
    await seed(merchantId, "cap", EXPORT_PAGE_ROWS + 300);
    const scope = { merchantId, livemode: false };
    const cut = await paymentsCsv(getDb(), scope, {}, EXPORT_PAGE_ROWS + 200);
    expect(cut).toMatchObject({ rows: EXPORT_PAGE_ROWS + 200, truncated: true });
    const lines = await readAll(cut.body);
    expect(lines).toHaveLength(1 + EXPORT_PAGE_ROWS + 200);
    expect(lines[1]).toMatch(/^pi_cap0001,/);
    expect(lines.at(-1)).toMatch(/^pi_cap1200,/);

    const whole = await paymentsCsv(getDb(), scope, {}, EXPORT_PAGE_ROWS + 300);
    expect(whole).toMatchObject({ rows: EXPORT_PAGE_ROWS + 300, truncated: false });
    expect(await readAll(whole.body)).toHaveLength(1 + EXPORT_PAGE_ROWS + 300);

    const empty = await paymentsCsv(getDb(), scope, { status: "failed" });
    expect(empty).toMatchObject({ rows: 0, truncated: false });
    expect(await readAll(empty.body)).toEqual([expect.stringMatching(/^id,created_utc,/)]);
  });

  it("sends the rows it counted: a payment made after the count is not in the file", async () => {
    const { merchantId } = await createTestMerchant("Export during payments");
    await seed(merchantId, "old", 1500);
    const csv = await paymentsCsv(getDb(), { merchantId, livemode: false }, {});
    expect(csv.rows).toBe(1500);
    await getDb().$executeRaw`
      INSERT INTO payment_intents (id, merchant_id, livemode, status, amount, amount_captured, currency, source)
      VALUES ('pi_madeduringexport', ${merchantId}, false, 'captured', 100, 100, 'USD', 'api')`;
    const lines = await readAll(csv.body);
    expect(lines).toHaveLength(1 + 1500);
    expect(lines.some((line) => line.startsWith("pi_madeduringexport,"))).toBe(false);
    expect(lines.at(-1)).toMatch(/^pi_old1500,/);
  });

  it("ends when the reader cancels, a page in", async () => {
    const { merchantId } = await createTestMerchant("Export canceled");
    await seed(merchantId, "cnl", 3 * EXPORT_PAGE_ROWS);
    const csv = await paymentsCsv(getDb(), { merchantId, livemode: false }, {});
    const reader = csv.body.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^id,/); // the header line
    const page = new TextDecoder().decode((await reader.read()).value);
    expect(page.trimEnd().split("\r\n")).toHaveLength(EXPORT_PAGE_ROWS);
    await reader.cancel();
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });
});
