// Any dashboard object that does not exist, or is another merchant's or the other mode's: one 404 page
// that leaks nothing about which.
import Link from "next/link";

export default function DashboardNotFound() {
  return (
    <div className="flex flex-col items-start gap-3 rounded-lg border border-slate-200 bg-white px-6 py-10 shadow-sm">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="text-slate-700">Nothing here in this account and mode. Check the address, or switch between test and live mode.</p>
      <Link href="/dashboard" className="text-sm font-medium text-indigo-700 hover:underline">
        Back to the dashboard home
      </Link>
    </div>
  );
}
