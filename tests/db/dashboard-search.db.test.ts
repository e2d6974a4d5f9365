// The dashboard's search by text (lib/dashboard/search.ts): customers by email or name, orders by their checkout's
// description; a common term answers the newest matches from the merchant's newest rows, a rare one finds a match
// older than those through the trigram indexes; always in the merchant and mode only, LIKE's wildcards literal,
// and text without 3 letters or digits in a row finds nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { isSearchableText, localPartTyped, searchText } from "../../lib/dashboard/search";
import { createTestMerchant } from "../helpers/merchants";

/** More rows than the search reads first (its RECENT_ROWS), so that an old match is found only by the index. */
const ROWS = 6_000;

let merchantId: string;
let otherId: string;

async function customer(merchant: string, id: string, name: string, email: string | null, ageMs: number, livemode = false) {
  await getDb().$executeRaw`
    INSERT INTO customers (id, merchant_id, livemode, name, email, created_at)
    VALUES (${id}, ${merchant}, ${livemode}, ${name}, ${email}, now() - ${ageMs} * interval '1 millisecond')`;
}

async function checkout(merchant: string, n: string, description: string, ageMs: number) {
  await getDb().$executeRaw`
    INSERT INTO checkouts (id, merchant_id, livemode, status, amount, currency, payment_intent_id, order_id, expires_at, description, created_at)
    VALUES (${`cs_srch${n}`}, ${merchant}, false, 'complete', 100, 'usd', ${`pi_srch${n}`}, ${`ord_srch${n}`}, now() + interval '1 day', ${description},
            now() - ${ageMs} * interval '1 millisecond')`;
}

beforeAll(async () => {
  [{ merchantId }, { merchantId: otherId }] = await Promise.all([
    createTestMerchant("Search Roasters"),
    createTestMerchant("Search Rivals"),
  ]);
  await getDb().$executeRaw`
    INSERT INTO customers (id, merchant_id, livemode, name, email, created_at)
    SELECT 'cus_srch' || g, ${merchantId}, false, 'Regular ' || g, 'regular' || g || '@shop.example', now() - g * interval '1 second'
      FROM generate_series(1, ${ROWS}::int) g`;
  await getDb().$executeRaw`
    INSERT INTO checkouts (id, merchant_id, livemode, status, amount, currency, payment_intent_id, order_id, expires_at, description, created_at)
    SELECT 'cs_srch' || g, ${merchantId}, false, 'complete', 100, 'usd', 'pi_srch' || g, 'ord_srch' || g, now() + interval '1 day',
           'Coffee beans, bag ' || g, now() - g * interval '1 second'
      FROM generate_series(1, ${ROWS}::int) g`;
  const older = (ROWS + 10) * 1000;
  await customer(merchantId, "cus_srchzanzibar", "Ada Zanzibar", "ada@zanzibar.example", older);
  await customer(merchantId, "cus_srchdiscount", "Discount 100% off", null, older);
  await customer(merchantId, "cus_srchdiscoun2", "Discount 1000 off", null, older);
  await customer(merchantId, "cus_srchlivezan", "Zanzibar Live", null, 5, true);
  await customer(otherId, "cus_srchotherzan", "Zanzibar Elsewhere", "other@zanzibar.example", 5);
  await checkout(merchantId, "zanzibar", "Vanilla pods from Zanzibar", older);
  // Addresses an address-shaped term finds in the middle, at a second @, and a name holding one.
  await customer(merchantId, "cus_srchmidlocal", "Jo Smith", "Jo.Smith@Example.org", older);
  await customer(merchantId, "cus_srchtwoat", "Two At", "x@y.smith@example.org", older + 1000);
  await customer(merchantId, "cus_srchnamedat", "Handle smith@example", null, older + 2000);
  await customer(merchantId, "cus_srchnotsmith", "Not Him", "smith@other.example", older + 3000);
  await customer(otherId, "cus_srchothersmith", "Smith Elsewhere", "smith@example.org", 5);
  await checkout(otherId, "otherzan", "Zanzibar cloves", 5);
});

const scope = () => ({ merchantId, livemode: false });

describe("dashboard search by text", () => {
  it("a common term: the 20 newest matches of customers and of orders", async () => {
    const hits = await searchText(getDb(), scope(), "regular");
    expect(hits.map((h) => h.id)).toEqual(Array.from({ length: 20 }, (_, i) => `cus_srch${i + 1}`));
    const orders = await searchText(getDb(), scope(), "COFFEE beans");
    expect(orders.map((h) => [h.kind, h.id, h.href])).toEqual(
      Array.from({ length: 20 }, (_, i) => ["order", `ord_srch${i + 1}`, `/dashboard/orders/ord_srch${i + 1}`]),
    );
    expect(orders[0].title).toBe("Coffee beans, bag 1");
  });

  it("a rare term older than the newest rows: found through the index, in this merchant and mode only", async () => {
    const hits = await searchText(getDb(), scope(), "zanzib");
    expect(hits).toEqual([
      {
        kind: "customer",
        id: "cus_srchzanzibar",
        title: "Ada Zanzibar",
        detail: "ada@zanzibar.example",
        href: "/dashboard/customers/cus_srchzanzibar",
      },
      {
        kind: "order",
        id: "ord_srchzanzibar",
        title: "Vanilla pods from Zanzibar",
        detail: null,
        href: "/dashboard/orders/ord_srchzanzibar",
      },
    ]);
    expect((await searchText(getDb(), { merchantId, livemode: true }, "zanzib")).map((h) => h.id)).toEqual(["cus_srchlivezan"]);
    expect(await searchText(getDb(), scope(), "nowhere-to-be-found")).toEqual([]);
  });

  it("text typed around an address's @: anywhere in the address, at any @, or in the name", async () => {
    expect((await searchText(getDb(), scope(), "smith@EXAM")).map((h) => h.id)).toEqual([
      "cus_srchmidlocal",
      "cus_srchtwoat",
      "cus_srchnamedat",
    ]);
    expect((await searchText(getDb(), scope(), "ada@zanz")).map((h) => h.id)).toEqual(["cus_srchzanzibar"]);
    expect(await searchText(getDb(), scope(), "smit_@exam")).toEqual([]);
    expect([localPartTyped("ada@"), localPartTyped("ab@example"), localPartTyped("@example.org")]).toEqual(["ada", null, null]);
  });

  it("takes % and _ literally", async () => {
    expect((await searchText(getDb(), scope(), "100%")).map((h) => h.id)).toEqual(["cus_srchdiscount"]);
    expect(await searchText(getDb(), scope(), "reg_lar")).toEqual([]);
  });

  it("needs 3 letters or digits in a row", async () => {
    expect([
      isSearchableText("ad"),
      isSearchableText("a.b.c"),
      isSearchableText("%_%"),
      isSearchableText("ada"),
      isSearchableText("é12"),
    ]).toEqual([false, false, false, true, true]);
    expect(await searchText(getDb(), scope(), "re")).toEqual([]);
  });
});
