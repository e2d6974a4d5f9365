"use client";
// Time left on the checkout, counted from the server's own clock reading (so a wrong client clock does
// not matter). At zero it asks the server to render the page again: the server decides it is expired.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

function clock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(hours ? 2 : 1, "0")}:${String(seconds).padStart(2, "0")}`;
  return hours ? `${hours}:${mmss}` : mmss;
}

export function ExpiryCountdown({ expiresAt, serverNow }: { expiresAt: number; serverNow: number }) {
  const router = useRouter();
  const [remaining, setRemaining] = useState(expiresAt - serverNow);

  useEffect(() => {
    const start = performance.now();
    const initial = expiresAt - serverNow;
    let refreshed = false;
    const timer = setInterval(() => {
      const left = initial - (performance.now() - start);
      setRemaining(left);
      if (left <= 0 && !refreshed) {
        refreshed = true;
        setTimeout(() => router.refresh(), 750);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, serverNow, router]);

  const urgent = remaining < 60_000;
  return (
    <p className={`inline-flex items-center gap-1.5 text-sm ${urgent ? "text-red-700" : "text-slate-600"}`}>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
        <path
          fillRule="evenodd"
          d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm.75-12.25a.75.75 0 0 0-1.5 0V10c0 .2.08.39.22.53l2.5 2.5a.75.75 0 1 0 1.06-1.06l-2.28-2.28V5.75Z"
          clipRule="evenodd"
        />
      </svg>
      {remaining > 0 ? (
        <span>
          Expires in <time dateTime={new Date(expiresAt).toISOString()}>{clock(remaining)}</time>
        </span>
      ) : (
        <span>This checkout has expired.</span>
      )}
    </p>
  );
}
