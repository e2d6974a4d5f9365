import { api } from "@/lib/http/api";
import { createMeter } from "@/lib/meters/create-meter";
import { listMeters } from "@/lib/meters/list-meters";
import { CreateMeterBody, ListMetersQuery } from "@/lib/meters/schemas";

export const POST = api({ auth: "secret", body: CreateMeterBody, status: 201 }, ({ tx, principal, body }) => createMeter(tx, principal, body));

export const GET = api({ auth: "secret", query: ListMetersQuery }, ({ tx, principal, query }) => listMeters(tx, principal, query));

export const dynamic = "force-dynamic";
