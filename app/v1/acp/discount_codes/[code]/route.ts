import { deleteDiscountCode } from "@/lib/acp/discount-codes";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const DELETE = api(operation.DELETE, ({ tx, principal, params }) => deleteDiscountCode(tx, principal, params.code));

export const dynamic = "force-dynamic";
