"use client";
// Toasts: short confirmations and errors in a polite live region (errors assertive), dismissable, gone after 6 s.
// The provider sits in the dashboard layout, which stays mounted across client-side navigation, so each
// toast belongs to one page (by pathname) and is dropped when the browser goes to another: "Secret key
// created." must not follow the merchant to the orders page.
import { usePathname } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

export interface ToastInput {
  title: string;
  tone?: "success" | "error" | "info";
  /** The page (pathname) the toast is about, when the action then navigates there; default the current page. */
  page?: string;
}
interface Toast extends Required<ToastInput> {
  id: number;
}

const ToastContext = createContext<{ toast: (input: ToastInput) => void } | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const pathnameRef = useRef(pathname);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const toast = useCallback(
    (input: ToastInput) => {
      const id = nextId.current++;
      setToasts((all) => [
        ...all.slice(-3),
        { id, title: input.title, tone: input.tone ?? "info", page: input.page ?? pathnameRef.current },
      ]);
      setTimeout(() => dismiss(id), 6_000);
    },
    [dismiss],
  );
  // On navigation, forget the toasts of other pages (coming back must not show them again): state adjusted
  // during the render that sees the new pathname, as React recommends over an effect.
  const [prunedFor, setPrunedFor] = useState(pathname);
  if (prunedFor !== pathname) {
    setPrunedFor(pathname);
    setToasts((all) => all.filter((toast) => toast.page === pathname));
  }
  useEffect(() => {
    pathnameRef.current = pathname;
  }, [pathname]);
  // Rendered for this page only, so a toast never shows on the next page even for the render before the effect.
  const shown = toasts.filter((toast) => toast.page === pathname);
  const value = useMemo(() => ({ toast }), [toast]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="pointer-events-none fixed bottom-4 right-4 z-50 flex w-full max-w-sm flex-col gap-2">
        <div role="status" aria-live="polite" className="flex flex-col gap-2">
          {shown
            .filter((t) => t.tone !== "error")
            .map((t) => (
              <ToastView key={t.id} toast={t} onDismiss={dismiss} />
            ))}
        </div>
        <div role="alert" aria-live="assertive" className="flex flex-col gap-2">
          {shown
            .filter((t) => t.tone === "error")
            .map((t) => (
              <ToastView key={t.id} toast={t} onDismiss={dismiss} />
            ))}
        </div>
      </div>
    </ToastContext.Provider>
  );
}

const TONES = {
  success: "border-emerald-200 bg-white text-slate-900 [&_.dot]:bg-emerald-500",
  error: "border-red-200 bg-white text-slate-900 [&_.dot]:bg-red-500",
  info: "border-slate-200 bg-white text-slate-900 [&_.dot]:bg-indigo-500",
};

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  return (
    <div
      data-testid="toast"
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${TONES[toast.tone]}`}
    >
      <span aria-hidden className="dot mt-1.5 h-2 w-2 shrink-0 rounded-full" />
      <p className="flex-1">{toast.title}</p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="rounded text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-label="Dismiss notification"
      >
        ×
      </button>
    </div>
  );
}

export function useToast() {
  const context = useContext(ToastContext);
  if (!context) throw new Error("useToast() needs a <ToastProvider> (the dashboard layout has one).");
  return context;
}
