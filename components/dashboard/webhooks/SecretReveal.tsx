// A signing secret shown once, with a copy button.
import { CopyButton } from "../CopyButton";

export function SecretReveal({ secret }: { secret: string }) {
  return (
    <div className="flex items-center gap-2">
      <code data-testid="new-secret" className="min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm">
        {secret}
      </code>
      <CopyButton value={secret} />
    </div>
  );
}
