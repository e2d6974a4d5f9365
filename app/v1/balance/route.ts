import { api } from "@/lib/http/api";
import { getBalance } from "@/lib/ledger/get-balance";

export const GET = api({ auth: "secret", permission: ["balance", "read"] }, ({ tx, principal }) => getBalance(tx, principal));

export const dynamic = "force-dynamic";
