// GET /v1/integrations (public, limited per client IP): the protocols and surfaces this deployment speaks,
// with versions and addresses (lib/integrations/registry.ts; only what works here now).
import { api } from "@/lib/http/api";
import { listIntegrations } from "@/lib/integrations/registry";
import * as operation from "./operations";

export const GET = api(operation.GET, () => listIntegrations());

export const dynamic = "force-dynamic";
