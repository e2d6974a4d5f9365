import { api } from "@/lib/http/api";
import { closeMeter } from "@/lib/meters/close-meter";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => closeMeter(tx, principal, params.id));

export const dynamic = "force-dynamic";
