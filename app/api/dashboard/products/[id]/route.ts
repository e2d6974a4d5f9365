// PATCH /api/dashboard/products/:id (edit, archive/unarchive with `active`), DELETE archives; as POST/DELETE /v1/products/:id.
import { z } from "zod";
import { dashboardApi } from "@/lib/dashboard/route";
import { UpdateProductBody } from "@/lib/products/schemas";
import { archiveProduct, updateProduct } from "@/lib/products/update-product";

export const dynamic = "force-dynamic";

export const PATCH = dashboardApi({ role: "developer", body: UpdateProductBody }, ({ tx, scope, params, body }) =>
  updateProduct(tx, scope, params.id, body),
);

export const DELETE = dashboardApi({ role: "developer", body: z.object({}).strict() }, ({ tx, scope, params }) =>
  archiveProduct(tx, scope, params.id),
);
