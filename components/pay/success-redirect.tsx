"use client";
// After a successful payment: back to the merchant's successUrl after a short moment. A <meta refresh>
// does the same without JavaScript; the link lets the payer go at once.
import { useEffect, useState } from "react";

export function SuccessRedirect({ url, seconds = 3 }: { url: string; seconds?: number }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    const timer = setInterval(() => setLeft((value) => Math.max(0, value - 1)), 1000);
    const go = setTimeout(() => window.location.assign(url), seconds * 1000);
    return () => {
      clearInterval(timer);
      clearTimeout(go);
    };
  }, [url, seconds]);
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the whole address
  }
  return (
    <>
      <meta httpEquiv="refresh" content={`${seconds + 2};url=${url}`} />
      <p aria-live="polite">
        Returning you to {host} in {left} second{left === 1 ? "" : "s"}…
      </p>
      <a
        href={url}
        className="inline-flex items-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        Continue now
      </a>
    </>
  );
}
