"use client";
// The merchant switcher (shown to users in more than one team): the session selects the chosen merchant
// on the server, then the dashboard renders again for it, from its home (the page open may be another
// merchant's object).
import { useRouter } from "next/navigation";
import { useState } from "react";
import { dashboardFetch, DashboardRequestError } from "@/lib/dashboard/client";

export function MerchantSwitcher({
  current,
  merchants,
}: {
  current: string;
  merchants: { merchantId: string; name: string; role: string }[];
}) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function choose(merchantId: string) {
    setPending(true);
    setError(null);
    try {
      await dashboardFetch("/api/dashboard/session/merchant", { body: { merchantId } });
      router.push("/dashboard");
      router.refresh();
      setPending(false);
    } catch (err) {
      setPending(false);
      setError(err instanceof DashboardRequestError ? err.message : "Could not switch. Try again.");
    }
  }
  return (
    <div className="mb-3 flex flex-col gap-1">
      <label htmlFor="merchant-switcher" className="text-xs font-medium uppercase tracking-wide text-slate-600">
        Merchant
      </label>
      <select
        id="merchant-switcher"
        value={current}
        disabled={pending}
        onChange={(event) => choose(event.target.value)}
        className="w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:outline-2 focus:outline-indigo-600"
      >
        {merchants.map((merchant) => (
          <option key={merchant.merchantId} value={merchant.merchantId}>
            {merchant.name} ({merchant.role})
          </option>
        ))}
      </select>
      {error ? (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
