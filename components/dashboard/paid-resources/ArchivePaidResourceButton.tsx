"use client";
// Archive (DELETE, as DELETE /v1/paid_resources/:id) or restore a paid resource. An archived resource is no
// longer served; its sales stay.
import { ArchiveRestoreButton } from "../ArchiveRestoreButton";

export function ArchivePaidResourceButton({ id, name, active }: { id: string; name: string; active: boolean }) {
  return (
    <ArchiveRestoreButton
      path={`/api/dashboard/paid-resources/${id}`}
      name={name}
      active={active}
      noun="paid resource"
      consequence="is no longer served at /x402/r/ and /mpp/r/. Its sales stay."
      confirmLabel="Archive resource"
    />
  );
}
