import { api } from "@/lib/http/api";
import { getMeter } from "@/lib/meters/get-meter";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getMeter(tx, principal, params.id));

export const dynamic = "force-dynamic";
