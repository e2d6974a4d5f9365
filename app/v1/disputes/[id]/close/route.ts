import { api } from "@/lib/http/api";
import { closeDispute } from "@/lib/disputes/close-dispute";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, params }) => closeDispute(tx, principal, params.id));

export const dynamic = "force-dynamic";
