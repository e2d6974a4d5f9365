"use client";
// The Settings form: business name (shown on the dashboard and the pay page), the pay page's brand colour
// and logo, and the time zone of the dashboard's times. One PATCH; refusals shown by their fields.
import { useState } from "react";
import type { MerchantSettings } from "@/lib/merchants/settings";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";
import { TextField } from "../TextField";

export function SettingsForm({ settings, timeZones }: { settings: MerchantSettings; timeZones: string[] }) {
  const [form, setForm] = useState({
    name: settings.name,
    brandColor: settings.brandColor ?? "",
    logoUrl: settings.logoUrl ?? "",
    timeZone: settings.timeZone,
  });
  const save = useDashboardMutation<Record<string, unknown>>({
    path: "/api/dashboard/settings",
    method: "PATCH",
    success: "Settings saved.",
    toastErrors: false,
  });
  const set = (field: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const errors = save.error?.fieldErrors ?? {};
  return (
    <form
      className="flex max-w-xl flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({
          name: form.name,
          brandColor: form.brandColor.trim() || null,
          logoUrl: form.logoUrl.trim() || null,
          timeZone: form.timeZone,
        });
      }}
    >
      <TextField
        label="Business name"
        value={form.name}
        onChange={set("name")}
        hint="Shown to payers on the pay page and in your dashboard."
        error={errors.name}
        required
      />
      <div className="flex items-end gap-3">
        <TextField
          label="Brand colour"
          value={form.brandColor}
          onChange={set("brandColor")}
          placeholder="#4f46e5"
          hint="The pay page's Pay button and badge; empty for the default."
          error={errors.brandColor}
          className="flex-1"
        />
        <input
          type="color"
          aria-label="Pick the brand colour"
          value={/^#[0-9a-fA-F]{6}$/.test(form.brandColor) ? form.brandColor : "#4f46e5"}
          onChange={(event) => set("brandColor")(event.target.value)}
          className="mb-7 h-9 w-12 cursor-pointer rounded border border-slate-300"
        />
      </div>
      <TextField
        label="Logo URL"
        value={form.logoUrl}
        onChange={set("logoUrl")}
        placeholder="https://example.com/logo.png"
        hint="An https:// image shown on the pay page; empty for your initial."
        error={errors.logoUrl}
        inputMode="url"
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor="settings-time-zone" className="text-sm font-medium text-slate-700">
          Time zone
        </label>
        <select
          id="settings-time-zone"
          value={form.timeZone}
          onChange={(event) => set("timeZone")(event.target.value)}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-indigo-600"
        >
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <p className="text-sm text-slate-600">Times on the dashboard are shown in this zone. Choose UTC to see UTC.</p>
        {errors.timeZone ? <p className="text-sm text-red-700">{errors.timeZone}</p> : null}
      </div>
      {save.error && Object.keys(errors).length === 0 ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {save.error.message}
        </p>
      ) : null}
      <div>
        <Button variant="primary" type="submit" pending={save.isPending}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
