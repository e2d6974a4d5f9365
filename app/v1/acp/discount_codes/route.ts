import { createDiscountCode, listDiscountCodes } from "@/lib/acp/discount-codes";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createDiscountCode(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal }) => listDiscountCodes(tx, principal));

export const dynamic = "force-dynamic";
