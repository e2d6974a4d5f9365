import { api } from "@/lib/http/api";
import { getMeter } from "@/lib/meters/get-meter";

export const GET = api({ auth: "secret", permission: ["meters", "read"] }, ({ tx, principal, params }) =>
  getMeter(tx, principal, params.id),
);

export const dynamic = "force-dynamic";
