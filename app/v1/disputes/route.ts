import { api } from "@/lib/http/api";
import { listDisputes } from "@/lib/disputes/list-disputes";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, query }) => listDisputes(tx, principal, query));

export const dynamic = "force-dynamic";
