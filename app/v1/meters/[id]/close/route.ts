import { api } from "@/lib/http/api";
import { closeMeter } from "@/lib/meters/close-meter";
import { EmptyBody } from "@/lib/meters/schemas";

export const POST = api({ auth: "secret", permission: ["meters", "write"], body: EmptyBody }, ({ tx, principal, params }) =>
  closeMeter(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
