// The dashboard's sidebar, in order. A new page adds its entry here.
export interface NavItem {
  href: string;
  label: string;
  /** Also active on paths below it (detail pages). Home is exact. */
  exact?: boolean;
}

export const DASHBOARD_NAV: NavItem[] = [
  { href: "/dashboard", label: "Home", exact: true },
  { href: "/dashboard/orders", label: "Orders" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/checkouts", label: "Checkouts" },
  { href: "/dashboard/customers", label: "Customers" },
  { href: "/dashboard/products", label: "Products" },
  { href: "/dashboard/paid-resources", label: "Paid resources" },
  { href: "/dashboard/meters", label: "Meters" },
  { href: "/dashboard/shared-payment-tokens", label: "Payment tokens" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/events", label: "Events" },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/connected-apps", label: "Connected apps" },
  { href: "/dashboard/settings", label: "Settings" },
];
