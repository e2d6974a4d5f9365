import { api } from "@/lib/http/api";
import { createProduct } from "@/lib/products/create-product";
import { listProducts } from "@/lib/products/list-products";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal, body }) => createProduct(tx, principal, body));

export const GET = api(operation.GET, ({ tx, principal, query }) => listProducts(tx, principal, query));

export const dynamic = "force-dynamic";
