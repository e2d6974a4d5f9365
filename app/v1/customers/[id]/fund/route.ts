import { fundTestWallet } from "@/lib/customers/fund-test-wallet";
import { FundTestWalletBody } from "@/lib/customers/schemas";
import { api } from "@/lib/http/api";

export const POST = api(
  { auth: "secret", permission: ["customers", "write"], body: FundTestWalletBody },
  ({ tx, principal, params, body }) => fundTestWallet(tx, principal, params.id, body),
);

export const dynamic = "force-dynamic";
