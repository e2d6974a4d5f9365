import { api } from "@/lib/http/api";
import { finishReservation } from "@/lib/meters/finish-reservation";
import { EmptyBody } from "@/lib/meters/schemas";

export const POST = api({ auth: "secret", body: EmptyBody }, ({ tx, principal, params }) => finishReservation(tx, principal, params.id, params.rid, "release"));
