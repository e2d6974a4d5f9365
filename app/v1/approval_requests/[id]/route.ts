import { getApprovalRequest } from "@/lib/approvals/read";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getApprovalRequest(tx, principal, params.id));

export const dynamic = "force-dynamic";
