import { fundTestWallet } from "@/lib/customers/fund-test-wallet";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params, body }) => fundTestWallet(tx, principal, params.id, body));

export const dynamic = "force-dynamic";
