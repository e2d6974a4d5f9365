// The frame of /login and /signup: a centred card under the product name.
import type { ReactNode } from "react";

export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center bg-slate-50 px-4 py-12">
      <p className="mb-6 flex items-center gap-2 text-base font-semibold text-slate-900">
        <span aria-hidden className="flex h-7 w-7 items-center justify-center rounded-md bg-indigo-600 text-sm font-bold text-white">
          A
        </span>
        Agent Payments Service
      </p>
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="mb-6 text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {children}
      </div>
      <p className="mt-6 text-sm text-slate-600">{footer}</p>
    </main>
  );
}

export const inputClass =
  "block w-full rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600 aria-[invalid=true]:border-red-600";
