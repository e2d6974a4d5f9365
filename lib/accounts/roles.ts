// The roles a dashboard user holds in a merchant (docs/dashboard.md, "Team"). They are ordered: each role
// may do everything the roles below it may. viewer reads; developer manages keys, webhooks and products;
// admin also refunds and manages members; owner everything (the merchant itself, ownership).
export const ROLES = ["owner", "admin", "developer", "viewer"] as const;

export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { owner: 3, admin: 2, developer: 1, viewer: 0 };

/** Whether `role` may do what `least` may. */
export function hasRole(role: Role, least: Role): boolean {
  return RANK[role] >= RANK[least];
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
