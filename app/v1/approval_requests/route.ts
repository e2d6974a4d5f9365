// GET lists the payer's approval requests, newest first (docs/approvals.md).
import { listApprovalRequests } from "@/lib/approvals/read";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, query }) => listApprovalRequests(tx, principal, query));

export const dynamic = "force-dynamic";
