"use client";
// Archive (DELETE, as DELETE /v1/products/:id) or restore a product. An archived product stays readable;
// checkouts refuse it.
import { ArchiveRestoreButton } from "../ArchiveRestoreButton";

export function ArchiveProductButton({ id, name, active }: { id: string; name: string; active: boolean }) {
  return (
    <ArchiveRestoreButton
      path={`/api/dashboard/products/${id}`}
      name={name}
      active={active}
      noun="product"
      consequence="can no longer be sold: checkouts naming it are refused. Orders already made keep it."
      confirmLabel="Archive product"
    />
  );
}
