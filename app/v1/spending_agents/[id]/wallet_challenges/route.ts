// A challenge the wallet signs with personal_sign; POST .../wallets then proves it (docs/spending-policies.md).
import { api } from "@/lib/http/api";
import { createWalletChallenge } from "@/lib/spending-policies/wallet-proof";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => createWalletChallenge(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
