// Marks an event made by "Send test event" (a sample object, not a payment of the account).
export function SampleEventBadge() {
  return (
    <span
      className="ml-2 inline-flex items-center rounded-md bg-slate-100 px-1.5 py-0.5 font-sans text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-500/20"
      data-testid="sample-event"
    >
      Test event
    </span>
  );
}
