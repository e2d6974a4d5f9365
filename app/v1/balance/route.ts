import { api } from "@/lib/http/api";
import { getBalance } from "@/lib/ledger/get-balance";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal }) => getBalance(tx, principal));

export const dynamic = "force-dynamic";
