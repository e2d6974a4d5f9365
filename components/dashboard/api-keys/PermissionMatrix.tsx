"use client";
// The permission matrix of a restricted key (docs/restricted-keys.md): one row per resource, its None / Read / Write
// radios one group (one name). A table so that the columns read as headers; each radio's own label names its
// resource and level ("checkouts: Write").
import { ACCESS_LEVELS, RESOURCES, type Access, type Permissions, type Resource } from "@/lib/merchants/permissions";

const LEVEL_LABEL: Record<Access, string> = { none: "None", read: "Read", write: "Write" };

export function emptyPermissions(): Permissions {
  return Object.fromEntries(RESOURCES.map((resource) => [resource, "none"])) as Permissions;
}

export function PermissionMatrix({ value, onChange }: { value: Permissions; onChange: (value: Permissions) => void }) {
  const set = (resource: Resource, access: Access) => onChange({ ...value, [resource]: access });
  return (
    <table className="w-full text-sm">
      <caption className="pb-2 text-left text-sm font-medium text-slate-700">Permissions (write includes read)</caption>
      <thead>
        <tr className="border-b border-slate-200 text-xs text-slate-600">
          <th scope="col" className="py-1.5 text-left font-medium">
            Resource
          </th>
          {ACCESS_LEVELS.map((level) => (
            <th key={level} scope="col" className="w-14 py-1.5 text-center font-medium">
              {LEVEL_LABEL[level]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {RESOURCES.map((resource) => (
          <tr key={resource} className="border-b border-slate-100">
            <th scope="row" className="py-1.5 text-left font-mono text-xs font-normal text-slate-800">
              {resource}
            </th>
            {ACCESS_LEVELS.map((level) => (
              <td key={level} className="py-1.5 text-center">
                <label className="inline-flex h-8 w-8 cursor-pointer items-center justify-center">
                  <input
                    type="radio"
                    name={`perm-${resource}`}
                    value={level}
                    checked={value[resource] === level}
                    onChange={() => set(resource, level)}
                    className="h-4 w-4 accent-indigo-600"
                  />
                  <span className="sr-only">{`${resource}: ${LEVEL_LABEL[level]}`}</span>
                </label>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
