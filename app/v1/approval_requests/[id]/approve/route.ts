import { approveRequest } from "@/lib/shared-payment-tokens/await-approval";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => approveRequest(tx, principal, params.id, "api"));

export const dynamic = "force-dynamic";
