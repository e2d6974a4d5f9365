// The shared payment tokens this merchant minted as a payer (listTokens, as GET /v1/shared_payment_tokens),
// with a status filter; an active token can be revoked.
import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/DataTable";
import { EmptyState } from "@/components/dashboard/EmptyState";
import { Money } from "@/components/dashboard/Money";
import { NextPageLink } from "@/components/dashboard/NextPageLink";
import { PageHeader } from "@/components/dashboard/PageHeader";
import { Section } from "@/components/dashboard/Section";
import { RevokeTokenButton } from "@/components/dashboard/shared-payment-tokens/RevokeTokenButton";
import { statusColumn } from "@/components/dashboard/StatusBadge";
import { StatusFilter } from "@/components/dashboard/StatusFilter";
import { getDb } from "@/lib/db";
import { formatDateTime } from "@/lib/dashboard/format";
import { listPageQuery, type SearchParams } from "@/lib/dashboard/list-query";
import { orNotFound } from "@/lib/dashboard/not-found";
import { hasRole } from "@/lib/accounts/roles";
import { requireDashboard } from "@/lib/dashboard/session";
import { listTokens } from "@/lib/shared-payment-tokens/list-tokens";
import { TOKEN_STATUSES } from "@/lib/shared-payment-tokens/schemas";

export const metadata: Metadata = { title: "Payment tokens" };

export default async function SharedPaymentTokensPage({ searchParams }: { searchParams: SearchParams }) {
  const { scope, role } = await requireDashboard();
  const query = await listPageQuery(searchParams, TOKEN_STATUSES);
  const page = await orNotFound(listTokens(getDb(), scope, query));
  return (
    <>
      <PageHeader
        title="Payment tokens"
        description="Shared payment tokens you minted as a payer (POST /v1/shared_payment_tokens): single-use, scoped credentials your agents hand to merchants instead of a card."
      />
      <StatusFilter basePath="/dashboard/shared-payment-tokens" statuses={TOKEN_STATUSES} current={query.status} />
      <Section title={query.status ? `Tokens: ${query.status}` : "All tokens"} flush>
        <DataTable
          caption="Shared payment tokens"
          rows={page.data}
          empty={
            <EmptyState
              title={query.status ? `No ${query.status} tokens` : "No tokens yet"}
              description="Mint one with POST /v1/shared_payment_tokens and your own API key."
            />
          }
          columns={[
            {
              header: "Up to",
              cell: (token) => <Money amount={token.maxAmount} currency={token.currency} className="font-medium text-slate-900" />,
            },
            statusColumn(),
            {
              header: "Merchant",
              cell: (token) => <span className="font-mono text-xs">{token.merchantId ?? "any"}</span>,
              hideOnMobile: true,
            },
            {
              header: "Paid",
              cell: (token) => (token.redeemedAmount !== null ? <Money amount={token.redeemedAmount} currency={token.currency} /> : "—"),
              hideOnMobile: true,
            },
            { header: "Token", cell: (token) => <span className="font-mono text-xs text-slate-600">{token.id}</span>, hideOnMobile: true },
            { header: "Expires", cell: (token) => formatDateTime(token.expiresAt), hideOnMobile: true },
            {
              header: "Actions",
              align: "right",
              pinned: true,
              cell: (token) => (token.status === "active" && hasRole(role, "admin") ? <RevokeTokenButton id={token.id} /> : "—"),
            },
          ]}
        />
        <NextPageLink
          basePath="/dashboard/shared-payment-tokens"
          query={{ status: query.status, startingAfter: query.startingAfter }}
          lastId={page.data.at(-1)?.id}
          hasMore={page.hasMore}
        />
      </Section>
    </>
  );
}
