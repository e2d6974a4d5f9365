// Responses of GET /v1/balance.
import { z } from "zod";
import { CurrencyAmount } from "../validation/objects";

export const BalanceObject = z
  .object({ object: z.literal("balance"), livemode: z.boolean(), pending: z.array(CurrencyAmount), payable: z.array(CurrencyAmount) })
  .meta({ id: "Balance" });
