// Page frame of the hosted pages: summary beside the payment panel on wide screens, stacked on phones.
import type { CSSProperties, ReactNode } from "react";
import { textColorOn } from "../../lib/merchants/settings";

function PoweredBy({ className }: { className: string }) {
  return (
    <p className={`text-xs text-slate-500 ${className}`}>
      Powered by <span className="font-semibold">Agent Payments Service</span>
    </p>
  );
}

/** The merchant's brand colour, as CSS variables the Pay button and the merchant badge read (default indigo). */
function brandStyle(color: string | null | undefined): CSSProperties | undefined {
  return color ? ({ "--brand": color, "--brand-text": textColorOn(color) } as CSSProperties) : undefined;
}

export function PayShell({ summary, children, brandColor }: { summary: ReactNode; children: ReactNode; brandColor?: string | null }) {
  return (
    <div className="min-h-screen bg-white md:bg-[linear-gradient(to_right,#f8fafc_50%,#ffffff_50%)]" style={brandStyle(brandColor)}>
      <main className="mx-auto grid max-w-5xl gap-8 px-5 py-8 md:grid-cols-2 md:gap-16 md:px-10 md:py-16">
        <div className="flex flex-col gap-10 md:pr-4">
          {summary}
          <PoweredBy className="hidden md:block" />
        </div>
        <div className="border-t border-slate-200 pt-8 md:border-t-0 md:pt-0">{children}</div>
      </main>
      <footer className="pb-8 text-center md:hidden">
        <PoweredBy className="" />
      </footer>
    </div>
  );
}
