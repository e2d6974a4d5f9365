"use client";
// "Invite member": an email and a role; the invitation mail carries a link that works once, for 7 days.
// Only owners are offered the owner role (the server refuses it to others either way).
import { useState } from "react";
import type { Role } from "@/lib/accounts/roles";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { DialogButton, messageOfNoField } from "../DialogButton";
import { SelectField } from "../SelectField";
import { TextField } from "../TextField";
import { ROLE_OPTIONS } from "./role-options";

export function InviteMemberButton({ canGrantOwner }: { canGrantOwner: boolean }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("developer");
  const invite = useDashboardMutation<{ email: string; role: Role }>({
    path: "/api/dashboard/team/invitations",
    success: (_, sent) => `Invitation sent to ${sent.email}.`,
    toastErrors: false,
    onSuccess: () => close(),
  });
  function close() {
    setOpen(false);
    setEmail("");
    setRole("developer");
    invite.reset();
  }
  const errors = invite.error?.fieldErrors ?? {};
  return (
    <DialogButton
      trigger={{ children: "Invite member", variant: "primary" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={close}
      title="Invite a team member"
      description="We email them a link to join this team. It works once, for 7 days."
      action={{ label: "Send invitation", pending: invite.isPending, onClick: () => invite.mutate({ email: email.trim(), role }) }}
      error={messageOfNoField(invite.error)}
      form
    >
      <TextField label="Email" type="email" autoComplete="off" value={email} onChange={setEmail} error={errors.email} required />
      <SelectField
        label="Role"
        value={role}
        onChange={(value) => setRole(value as Role)}
        options={ROLE_OPTIONS.filter((option) => canGrantOwner || option.value !== "owner")}
      />
    </DialogButton>
  );
}
