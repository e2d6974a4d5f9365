"use client";
// The dashboard's navigation, with the current page marked (aria-current): a sidebar from the md
// breakpoint, and on a phone a "Menu" disclosure naming the current page, so every entry is reachable
// without sideways scrolling.
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Role } from "@/lib/accounts/roles";
import { navFor, type NavItem } from "@/lib/dashboard/nav";

function matches(item: NavItem, pathname: string): boolean {
  return item.exact ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
}

/** The entry of the current page: the longest that matches (Settings -> Activity marks Activity only). */
function currentItem(items: NavItem[], pathname: string): NavItem | undefined {
  return items.filter((item) => matches(item, pathname)).sort((a, b) => b.href.length - a.href.length)[0];
}

function NavLinks({ items, pathname, onNavigate }: { items: NavItem[]; pathname: string; onNavigate?: () => void }) {
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
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The entries the user's role may see (the pages refuse the others on the server). */
export function SideNav({ role }: { role: Role }) {
  const pathname = usePathname();
  const items = navFor(role);
  const current = currentItem(items, pathname);
  return (
    <>
      <nav aria-label="Dashboard" className="hidden md:block">
        <NavLinks items={items} pathname={pathname} />
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
            onNavigate={() =>
              document.activeElement instanceof HTMLElement && document.activeElement.closest("details")?.removeAttribute("open")
            }
          />
        </nav>
      </details>
    </>
  );
}
