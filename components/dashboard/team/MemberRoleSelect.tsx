"use client";
// A member's role, changed in place (admins; the owner role only by owners). A refusal (say, the last
// owner) is toasted and the select shows the role the server kept.
import { useState } from "react";
import type { Role } from "@/lib/accounts/roles";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { ROLE_OPTIONS } from "./role-options";

export function MemberRoleSelect({
  userId,
  email,
  role,
  canGrantOwner,
}: {
  userId: string;
  email: string;
  role: Role;
  canGrantOwner: boolean;
}) {
  const [value, setValue] = useState<Role>(role);
  const change = useDashboardMutation<Role>({
    path: `/api/dashboard/team/members/${userId}`,
    method: "PATCH",
    body: (next) => ({ role: next }),
    success: (_, next) => `${email} is now ${next}.`,
    onSuccess: (_, next) => setValue(next),
  });
  const options = ROLE_OPTIONS.filter((option) => canGrantOwner || option.value !== "owner" || role === "owner");
  return (
    <select
      aria-label={`Role of ${email}`}
      value={value}
      disabled={change.isPending || (role === "owner" && !canGrantOwner)}
      onChange={(event) => change.mutate(event.target.value as Role)}
      className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-600 disabled:bg-slate-100"
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.value}
        </option>
      ))}
    </select>
  );
}
