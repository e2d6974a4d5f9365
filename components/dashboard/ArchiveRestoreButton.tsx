"use client";
// "Archive" with a confirmation (DELETE on the object's dashboard route), or "Restore" for an archived object
// (PATCH { active: true }). One button for every catalog-like object (products, paid resources).
import { useState, type ReactNode } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "./Button";
import { DialogButton } from "./DialogButton";

export interface ArchiveRestoreButtonProps {
  /** The object's dashboard route, e.g. `/api/dashboard/products/prd_...`. */
  path: string;
  name: string;
  active: boolean;
  /** What the object is called in messages: "product", "paid resource". */
  noun: string;
  /** What archiving does, after the object's name in the dialog. */
  consequence: ReactNode;
  /** The dialog's confirm button. */
  confirmLabel: string;
}

export function ArchiveRestoreButton({ path, name, active, noun, consequence, confirmLabel }: ArchiveRestoreButtonProps) {
  const [open, setOpen] = useState(false);
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const archive = useDashboardMutation<void>({ path, method: "DELETE", success: `${Noun} archived.`, onSuccess: () => setOpen(false) });
  const restore = useDashboardMutation<void>({ path, method: "PATCH", body: () => ({ active: true }), success: `${Noun} restored.` });
  if (!active) {
    return (
      <Button
        size="sm"
        variant="secondary"
        pending={restore.isPending}
        onClick={() => restore.mutate()}
        aria-label={`Restore ${name}`}
        className="relative z-10"
      >
        Restore
      </Button>
    );
  }
  return (
    <DialogButton
      trigger={{ children: "Archive", size: "sm", variant: "secondary", "aria-label": `Archive ${name}`, className: "relative z-10" }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      title={`Archive this ${noun}?`}
      description={
        <>
          <span className="font-medium">{name}</span> {consequence} You can restore it later.
        </>
      }
      action={{ label: confirmLabel, variant: "danger", pending: archive.isPending, onClick: () => archive.mutate() }}
    />
  );
}
