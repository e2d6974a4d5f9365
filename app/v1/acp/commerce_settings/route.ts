import { getCommerceSettings, updateCommerceSettings } from "@/lib/acp/merchant-settings";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal }) => getCommerceSettings(tx, principal));

export const POST = api(operation.POST, ({ tx, principal, body }) => updateCommerceSettings(tx, principal, body));

export const dynamic = "force-dynamic";
