// The signed challenge proves the wallet: its address joins the agent's walletAddresses (docs/spending-policies.md).
import { api } from "@/lib/http/api";
import { proveWallet } from "@/lib/spending-policies/wallet-proof";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => proveWallet(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
