import { api } from "@/lib/http/api";
import { finishReservation } from "@/lib/meters/finish-reservation";
import { EmptyBody } from "@/lib/meters/schemas";

// One atomic statement; finishing twice the same way answers the same reservation (idempotent by itself).
export const POST = api(
  { auth: "secret", permission: ["meters", "write"], body: EmptyBody, idempotent: false, transaction: false, db: "sql" },
  ({ tx, principal, params }) => finishReservation(tx, principal, params.id, params.rid, "commit"),
);

export const dynamic = "force-dynamic";
