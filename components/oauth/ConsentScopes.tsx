// What the consent screen says an app will be able to do: exactly the scopes it asked for (read when it named
// none), nothing it did not ask. Write is a checkbox, preselected, only when read was asked too (clearing it
// grants read alone); otherwise each scope is a plain line, and the merchant's choice is Allow or Deny.
import { SCOPE_DESCRIPTIONS, writeIsOptional, type Scope } from "@/lib/oauth/config";

export function ConsentScopes({ scopes }: { scopes: Scope[] }) {
  const optionalWrite = writeIsOptional(scopes);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-700">It will be able to</legend>
      {scopes.map((scope) =>
        scope === "write" && optionalWrite ? (
          <label key={scope} className="flex gap-2 text-sm text-slate-800">
            <input type="checkbox" name="grant_write" defaultChecked className="mt-0.5 h-4 w-4 accent-indigo-600" />
            <span>{SCOPE_DESCRIPTIONS.write}</span>
          </label>
        ) : (
          <p key={scope} className="flex gap-2 text-sm text-slate-800">
            <span aria-hidden className="mt-0.5 text-indigo-600">
              ✓
            </span>
            <span>{SCOPE_DESCRIPTIONS[scope]}</span>
          </p>
        ),
      )}
    </fieldset>
  );
}
