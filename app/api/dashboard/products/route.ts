// POST /api/dashboard/products: a product made in the dashboard; the same createProduct (and body) as POST /v1/products.
import { dashboardApi } from "@/lib/dashboard/route";
import { createProduct } from "@/lib/products/create-product";
import { CreateProductBody } from "@/lib/products/schemas";

export const dynamic = "force-dynamic";

export const POST = dashboardApi({ role: "developer", body: CreateProductBody, status: 201 }, ({ tx, scope, body }) =>
  createProduct(tx, scope, body),
);
