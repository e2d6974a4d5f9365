import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Agent Payments Service</h1>
      <p className="mt-4 text-slate-700">
        Charge AI agents and people: checkouts paid into orders, refunds, signed webhooks, and pay-per-call paywalls for any API or MCP
        tool.
      </p>
      <nav aria-label="Account" className="mt-6 flex gap-3">
        <Link
          href="/signup"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Sign up
        </Link>
        <Link
          href="/login"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Sign in
        </Link>
      </nav>
      <ul className="mt-8 space-y-2 text-slate-700">
        <li>
          REST API under <code className="rounded bg-slate-200 px-1">/v1</code> with a Bearer API key.
        </li>
        <li>
          Probes:{" "}
          <a className="text-indigo-700 underline" href="/health">
            /health
          </a>{" "}
          and{" "}
          <a className="text-indigo-700 underline" href="/ready">
            /ready
          </a>
          .
        </li>
      </ul>
    </main>
  );
}
