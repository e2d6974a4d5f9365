"use client";
// "Remove" a member (or "Leave" the team yourself), with a confirmation. The last owner cannot go: the
// server refuses, and the refusal is shown in the dialog.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";

export function RemoveMemberButton({ userId, email, self }: { userId: string; email: string; self: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const remove = useDashboardMutation<void>({
    path: self ? "/api/dashboard/team/leave" : `/api/dashboard/team/members/${userId}`,
    method: self ? "POST" : "DELETE",
    success: self ? "You left the team." : `${email} was removed from the team.`,
    toastErrors: false,
    refresh: !self,
    onSuccess: () => {
      setOpen(false);
      if (self) {
        router.push("/dashboard");
        router.refresh();
      }
    },
  });
  return (
    <DialogButton
      trigger={{
        children: self ? "Leave" : "Remove",
        size: "sm",
        variant: "secondary",
        "aria-label": self ? "Leave this team" : `Remove ${email}`,
      }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => {
        setOpen(false);
        remove.reset();
      }}
      title={self ? "Leave this team?" : `Remove ${email}?`}
      description={
        self
          ? "You lose access to this merchant's dashboard at once. Someone with the admin role can invite you again."
          : "They lose access to this merchant's dashboard at once; their pending invitations to this team end too."
      }
      action={{
        label: self ? "Leave team" : "Remove member",
        variant: "danger",
        pending: remove.isPending,
        onClick: () => remove.mutate(),
      }}
      error={messageOfNoField(remove.error)}
    />
  );
}
