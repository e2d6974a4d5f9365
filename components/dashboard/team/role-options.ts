// The roles as the Team page offers them, with what each may do (docs/dashboard.md, "Roles").
import type { Role } from "@/lib/accounts/roles";

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: "viewer", label: "Viewer: reads everything" },
  { value: "developer", label: "Developer: also keys, webhooks, products" },
  { value: "admin", label: "Admin: also refunds, team, settings" },
  { value: "owner", label: "Owner: everything, ownership" },
];
