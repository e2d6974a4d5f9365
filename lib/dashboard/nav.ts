// The dashboard's sidebar, in order. A new page adds its entry here, with the least role that may see it
// (the page itself refuses lower roles: requireDashboard(role)); the sidebar shows a user only theirs.
import { hasRole, type Role } from "../accounts/roles";

export interface NavItem {
  href: string;
  label: string;
  /** Also active on paths below it (detail pages). Home is exact. */
  exact?: boolean;
  /** The least role that may see the page (default: viewer, every member). */
  role?: Role;
}

export const DASHBOARD_NAV: NavItem[] = [
  { href: "/dashboard", label: "Home", exact: true },
  { href: "/dashboard/orders", label: "Orders" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/disputes", label: "Disputes" },
  { href: "/dashboard/agents", label: "Agents" },
  { href: "/dashboard/checkouts", label: "Checkouts" },
  { href: "/dashboard/customers", label: "Customers" },
  { href: "/dashboard/products", label: "Products" },
  { href: "/dashboard/paid-resources", label: "Paid resources" },
  { href: "/dashboard/meters", label: "Meters" },
  { href: "/dashboard/shared-payment-tokens", label: "Payment tokens" },
  { href: "/dashboard/spending-agents", label: "Spending agents" },
  { href: "/dashboard/approvals", label: "Approvals" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/api-keys", label: "API keys", role: "developer" },
  { href: "/dashboard/connected-apps", label: "Connected apps", role: "developer" },
  { href: "/dashboard/team", label: "Team" },
  { href: "/dashboard/settings", label: "Settings" },
  { href: "/dashboard/settings/activity", label: "Activity" },
];

/** A number shown beside an entry (the disputes awaiting a response), by the entry's href. */
export type NavBadges = Partial<Record<string, number>>;

/** A badge counts up to this many ("99+" from there): its query stops there. */
export const NAV_BADGE_CAP = 100;

/** The entries a role may see. */
export function navFor(role: Role): NavItem[] {
  return DASHBOARD_NAV.filter((item) => hasRole(role, item.role ?? "viewer"));
}
