-- Prepaid meters opened before funding existed had a budget that no money backed. From now on it covers no
-- new calls (what is used or held stays as it is), and more room is a top-up, which is charged. Their usage
-- committed before is still in accrued_base and is billed by the settlement as post-paid usage is.
UPDATE "meters" SET "budget_base" = "used_base" + "reserved_base"
 WHERE "prepaid" AND "funded_minor" = 0 AND "budget_base" > "used_base" + "reserved_base";
