// The home page's first-run checklist: each step links to where it is done and is ticked once the
// account shows it (lib/dashboard/first-run.ts). Gone once every step is done.
import Link from "next/link";
import type { FirstRunStep } from "@/lib/dashboard/first-run";
import { Section } from "./Section";

const STEPS: Record<FirstRunStep["id"], { title: string; detail: string; href: string; action: string }> = {
  api_key: {
    title: "Create an API key",
    detail: "The keys made at sign-up keep their secrets hidden: create one to see its secret once and call the API.",
    href: "/dashboard/api-keys",
    action: "Go to API keys",
  },
  checkout: {
    title: "Open a test checkout",
    detail: "Create a checkout and pay it on the hosted pay page with a test card.",
    href: "/dashboard/checkouts",
    action: "Go to checkouts",
  },
  webhook_endpoint: {
    title: "Add a webhook endpoint",
    detail: "Receive signed events such as order.paid on your server.",
    href: "/dashboard/webhooks",
    action: "Go to webhooks",
  },
  paywall: {
    title: "Try the paywall or MCP example",
    detail: "Charge per call: run `npm run example:mcp` with your key, or sell an endpoint as a paid resource.",
    href: "/dashboard/paid-resources",
    action: "Go to paid resources",
  },
};

export function GettingStarted({ steps }: { steps: FirstRunStep[] }) {
  const left = steps.filter((step) => !step.done).length;
  if (left === 0) return null;
  return (
    <Section title="Get started" description={`${steps.length - left} of ${steps.length} done`} className="mb-6">
      <ol className="flex flex-col gap-3" data-testid="getting-started">
        {steps.map((step) => {
          const text = STEPS[step.id];
          return (
            <li key={step.id} className="flex items-start gap-3" data-testid={`step-${step.id}`} data-done={step.done}>
              <span
                aria-hidden
                className={`mt-0.5 flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${step.done ? "bg-emerald-600 text-white" : "border border-slate-300 text-slate-500"}`}
              >
                {step.done ? "✓" : ""}
              </span>
              <div className="min-w-0">
                <p className={`text-sm font-medium ${step.done ? "text-slate-500 line-through" : "text-slate-900"}`}>
                  {text.title}
                  <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
                </p>
                {step.done ? null : (
                  <p className="text-sm text-slate-600">
                    {text.detail}{" "}
                    <Link href={text.href} className="font-medium text-indigo-700 hover:underline">
                      {text.action}
                    </Link>
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
