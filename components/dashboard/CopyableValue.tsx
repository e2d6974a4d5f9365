// A value shown for copying (a secret shown once, a pay link), selectable in one click, with a copy button.
import { CopyButton } from "./CopyButton";

export function CopyableValue({ value, testId = "new-secret", small = false }: { value: string; testId?: string; small?: boolean }) {
  return (
    <div className="flex items-center gap-2">
      <code
        data-testid={testId}
        className={`min-w-0 flex-1 select-all break-all rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono ${small ? "text-xs" : "text-sm"}`}
      >
        {value}
      </code>
      <CopyButton value={value} />
    </div>
  );
}
