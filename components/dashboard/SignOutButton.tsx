"use client";
// Sign-out through next-auth (its own CSRF-protected POST), then back to /login.
import { signOut } from "next-auth/react";
import { useState } from "react";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: "/login" });
      }}
      className="whitespace-nowrap rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {pending ? "Signing out…" : "Sign out"}
    </button>
  );
}
