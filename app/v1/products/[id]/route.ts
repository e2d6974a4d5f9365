// GET a product, POST updates it (Stripe's update verb), DELETE archives it (active: false; docs/products.md).
import { api } from "@/lib/http/api";
import { getProduct } from "@/lib/products/get-product";
import { archiveProduct, updateProduct } from "@/lib/products/update-product";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx, principal, params }) => getProduct(tx, principal, params.id));

export const POST = api(operation.POST, ({ tx, principal, params, body }) => updateProduct(tx, principal, params.id, body));

export const DELETE = api(operation.DELETE, ({ tx, principal, params }) => archiveProduct(tx, principal, params.id));

export const dynamic = "force-dynamic";
