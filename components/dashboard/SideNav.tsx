"use client";
// The dashboard's navigation, with the current page marked (aria-current): a sidebar from the md
// breakpoint, and on a phone a "Menu" disclosure naming the current page, so every entry is reachable
// without sideways scrolling.
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Role } from "@/lib/accounts/roles";
import { NAV_BADGE_CAP, navFor, type NavBadges, type NavItem } from "@/lib/dashboard/nav";

function matches(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}

/** The entry of the current page: the longest that matches (Settings -> Activity marks Activity only). */
function currentItem(items: NavItem[], pathname: string): NavItem | undefined {
  return items.filter((item) => matches(item, pathname)).sort((a, b) => b.href.length - a.href.length)[0];
}

/** An entry's count (disputes awaiting a response): shown as a number, read out as part of the link's name. */
function Badge({ count }: { count: number | undefined }) {
  if (!count) return null;
  const shown = count >= NAV_BADGE_CAP ? `${NAV_BADGE_CAP - 1}+` : String(count);
  return (
    <>
      <span
        aria-hidden
        className="ml-2 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white"
        data-testid="nav-badge"
      >
        {shown}
      </span>
      <span className="sr-only">{` (${shown} awaiting a response)`}</span>
    </>
  );
}

function NavLinks({
  items,
  pathname,
  badges,
  onNavigate,
}: {
  items: NavItem[];
  pathname: string;
  badges: NavBadges;
  onNavigate?: () => void;
}) {
  const current = currentItem(items, pathname);
  return (
    <ul className="grid grid-cols-2 gap-1 md:flex md:flex-col">
      {items.map((item) => {
        const active = item === current;
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`block whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${active ? "bg-indigo-50 text-indigo-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"}`}
            >
              {item.label}
              <Badge count={badges[item.href]} />
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The entries the user's role may see (the pages refuse the others on the server). */
export function SideNav({ role, badges = {} }: { role: Role; badges?: NavBadges }) {
  const pathname = usePathname();
  const items = navFor(role);
  const current = currentItem(items, pathname);
  return (
    <>
      <nav aria-label="Dashboard" className="hidden md:block">
        <NavLinks items={items} pathname={pathname} badges={badges} />
      </nav>
      <details className="group rounded-md border border-slate-200 bg-white md:hidden" data-testid="mobile-nav">
        <summary className="flex cursor-pointer list-none items-center justify-between px-3 py-2 text-sm font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600">
          <span>
            Menu<span className="text-slate-500">{current ? ` · ${current.label}` : ""}</span>
          </span>
          <span aria-hidden className="text-slate-500 transition-transform group-open:rotate-180">
            ▾
          </span>
        </summary>
        <nav aria-label="Dashboard" className="border-t border-slate-200 p-2">
          <NavLinks
            items={items}
            pathname={pathname}
            badges={badges}
            onNavigate={() =>
              document.activeElement instanceof HTMLElement && document.activeElement.closest("details")?.removeAttribute("open")
            }
          />
        </nav>
      </details>
    </>
  );
}
