// The terminal states of a checkout as the payer sees them. Presentational only.
import type { ReactNode } from "react";
import { DestinationLink } from "./DestinationLink";
import { OutcomeHeading } from "./OutcomeHeading";

type Tone = "success" | "error" | "neutral";

const TONES: Record<Tone, { ring: string; icon: ReactNode }> = {
  success: {
    ring: "bg-emerald-100 text-emerald-700",
    icon: (
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
        clipRule="evenodd"
      />
    ),
  },
  error: {
    ring: "bg-red-100 text-red-700",
    icon: (
      <path
        fillRule="evenodd"
        d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.58l4.3-4.3a1 1 0 1 1 1.4 1.42L11.42 10l4.3 4.3a1 1 0 0 1-1.42 1.4L10 11.42l-4.3 4.3a1 1 0 0 1-1.4-1.42L8.58 10 4.3 5.7a1 1 0 0 1 0-1.4Z"
        clipRule="evenodd"
      />
    ),
  },
  neutral: {
    ring: "bg-slate-100 text-slate-600",
    icon: (
      <path
        fillRule="evenodd"
        d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm.75-12.25a.75.75 0 0 0-1.5 0V10c0 .2.08.39.22.53l2.5 2.5a.75.75 0 1 0 1.06-1.06l-2.28-2.28V5.75Z"
        clipRule="evenodd"
      />
    ),
  },
};

export function OutcomePanel(props: { tone: Tone; title: string; children?: ReactNode; testId?: string }) {
  const tone = TONES[props.tone];
  return (
    <section aria-labelledby="outcome-title" className="flex flex-col items-start gap-4" data-testid={props.testId}>
      <span className={`flex size-12 items-center justify-center rounded-full ${tone.ring}`} aria-hidden="true">
        <svg viewBox="0 0 20 20" fill="currentColor" className="size-6">
          {tone.icon}
        </svg>
      </span>
      <OutcomeHeading id="outcome-title" className="text-2xl font-semibold tracking-tight text-slate-900">
        {props.title}
      </OutcomeHeading>
      <div className="space-y-3 text-slate-700">{props.children}</div>
    </section>
  );
}

/** Back to the merchant (its successUrl or cancelUrl), with the destination host named. */
export function ReturnLink({ href, merchantName }: { href: string; merchantName: string }) {
  return <DestinationLink href={href} label={`Return to ${merchantName}`} />;
}
