"use client";
// A page that failed to load says so and offers a retry, inside the dashboard frame (nothing internal is shown).
import { useEffect } from "react";
import { Button } from "@/components/dashboard/Button";

export default function DashboardError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-red-200 bg-white px-6 py-10 shadow-sm">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">This page could not be loaded</h1>
      <p className="text-slate-700">
        Something went wrong on our side. Try again; if it keeps happening, report it
        {error.digest ? ` with the reference ${error.digest}` : ""}.
      </p>
      <Button variant="primary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
