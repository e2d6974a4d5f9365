import { api } from "@/lib/http/api";
import { finishReservation } from "@/lib/meters/finish-reservation";
import * as operation from "./operations";

// One atomic statement; finishing twice the same way answers the same reservation (idempotent by itself).
export const POST = api(operation.POST, ({ tx, principal, params }) => finishReservation(tx, principal, params.id, params.rid, "release"));

export const dynamic = "force-dynamic";
