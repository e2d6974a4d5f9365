"use client";
// Test/live switch, always visible in the top bar. It sets the mode cookie and re-renders the page's
// server components; nothing else changes (every query stays scoped to the signed-in merchant).
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { MODE_COOKIE, type DashboardMode } from "@/lib/dashboard/mode";

export function ModeSwitch({ mode }: { mode: DashboardMode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const testMode = mode === "test";
  const toggle = () => {
    document.cookie = `${MODE_COOKIE}=${testMode ? "live" : "test"}; path=/; max-age=31536000; samesite=lax`;
    startTransition(() => router.refresh());
  };
  return (
    <button
      type="button"
      role="switch"
      aria-checked={testMode}
      onClick={toggle}
      disabled={pending}
      className="flex items-center gap-2 whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <span
        className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors ${testMode ? "bg-amber-500" : "bg-slate-300"}`}
      >
        <span
          className={`inline-block h-4 w-4 rounded-full bg-white shadow transition-transform ${testMode ? "translate-x-4" : "translate-x-0.5"}`}
        />
      </span>
      Test mode
    </button>
  );
}
