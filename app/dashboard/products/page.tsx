// The product catalog of the current mode (listProducts, as GET /v1/products): create, edit, archive/restore.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { Money } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { ArchiveProductButton } from "@/components/dashboard/products/ArchiveProductButton";
import { ProductFormButton } from "@/components/dashboard/products/ProductFormButton";
import { Section } from "@/components/dashboard/Section";
import { StatusBadge } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { listProducts } from "@/lib/products/list-products";

export const metadata: Metadata = { title: "Products" };

const FILTERS = ["active", "archived"] as const;

export default async function ProductsPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, mode, role } = await requireDashboard();
  const canEdit = hasRole(role, "developer");
  const query = await listPageQuery(searchParams, FILTERS);
  const active = query.status === undefined ? undefined : query.status === "active";
  const page = await orNotFound(listProducts(getDb(), scope, { limit: query.limit, startingAfter: query.startingAfter, active }));
  return (
    <>
      <PageHeader
        title="Products"
        description="Your catalog. Checkouts opened with items: [{ productId, quantity }] are priced from here."
        actions={canEdit ? <ProductFormButton mode={mode} /> : null}
      />
      <StatusFilter basePath="/dashboard/products" statuses={FILTERS} current={query.status} />
      <Section title={query.status ? `Products: ${query.status}` : "All products"} flush>
        <DataTable
          caption="Products"
          rows={page.data}
          empty={
            <EmptyState
              title={query.status ? `No ${query.status} products` : "No products yet"}
              description="Create one here, or with POST /v1/products."
            />
          }
          columns={[
            { header: "Name", cell: (product) => <span className="font-medium text-slate-900">{product.name}</span> },
            { header: "Price", cell: (product) => <Money amount={product.unitAmount} currency={product.currency} /> },
            { header: "Status", cell: (product) => <StatusBadge status={product.active ? "active" : "archived"} /> },
            {
              header: "Product",
              cell: (product) => <span className="font-mono text-xs text-slate-600">{product.id}</span>,
              hideOnMobile: true,
            },
            { header: "Created", cell: (product) => formatDateTime(product.createdAt), hideOnMobile: true },
            ...(canEdit
              ? [
                  {
                    header: "Actions",
                    align: "right" as const,
                    pinned: true,
                    cell: (product: (typeof page.data)[number]) => (
                      <span className="inline-flex gap-2">
                        <ProductFormButton mode={mode} product={product} />
                        <ArchiveProductButton id={product.id} name={product.name} active={product.active} />
                      </span>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <NextPageLink
          basePath="/dashboard/products"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
