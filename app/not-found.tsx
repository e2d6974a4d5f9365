// Any address outside the dashboard that names nothing: a styled 404 with a way back.
import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto flex max-w-xl flex-col items-start gap-3 px-6 py-16">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address. Check it, or start from the home page.</p>
      <Link href="/" className="text-sm font-medium text-indigo-700 hover:underline">
        Go to the home page
      </Link>
    </main>
  );
}
