"use client";
// "Revoke" a pending invitation: its link stops working at once.
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";

export function RevokeInvitationButton({ id, email }: { id: string; email: string }) {
  const revoke = useDashboardMutation<void>({
    path: `/api/dashboard/team/invitations/${id}/revoke`,
    success: `The invitation to ${email} was revoked.`,
  });
  return (
    <Button
      size="sm"
      variant="secondary"
      pending={revoke.isPending}
      aria-label={`Revoke the invitation to ${email}`}
      onClick={() => revoke.mutate()}
    >
      Revoke
    </Button>
  );
}
