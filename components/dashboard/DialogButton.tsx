"use client";
// A button that opens a dialog with Cancel and one action: every dashboard "Create…", "Edit", "Revoke",
// "Refund" is one of these. The dialog (Dialog.tsx) traps focus, closes on Escape and returns focus to
// the button. With `form`, the body is a form and Enter runs the action; `error` is a refusal that names
// no field, announced as an alert.
import type { ComponentProps, ReactNode } from "react";
import type { DashboardRequestError } from "@/lib/dashboard/client";
import { Button } from "./Button";
import { Dialog } from "./Dialog";

export interface DialogAction {
  label: ReactNode;
  onClick: () => void;
  pending: boolean;
  variant?: "primary" | "danger";
  disabled?: boolean;
}

/** A refusal's message when it names no field (a field's error shows under that field instead). */
export function messageOfNoField(error: DashboardRequestError | null): string | null {
  return error && !Object.keys(error.fieldErrors).length ? error.message : null;
}

export function DialogButton({
  trigger,
  open,
  onOpen,
  onClose,
  title,
  description,
  action,
  done,
  form = false,
  error,
  children,
}: {
  /** The opening button: Button's props, its children the label. */
  trigger: Omit<ComponentProps<typeof Button>, "onClick">;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  action: DialogAction;
  /** Once the action is done (a secret shown once, a link): Done (which closes) and any `links` beside it
   * replace Cancel and the action. */
  done?: { links?: ReactNode };
  form?: boolean;
  error?: string | null;
  children?: ReactNode;
}) {
  const alert = error ? (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {error}
    </p>
  ) : null;
  return (
    <>
      <Button {...trigger} onClick={onOpen} />
      <Dialog
        open={open}
        onClose={onClose}
        title={title}
        description={description}
        footer={
          done ? (
            <>
              {done.links}
              <Button variant="primary" onClick={onClose}>
                Done
              </Button>
            </>
          ) : (
            <>
              <Button onClick={onClose}>Cancel</Button>
              <Button variant={action.variant ?? "primary"} pending={action.pending} disabled={action.disabled} onClick={action.onClick}>
                {action.label}
              </Button>
            </>
          )
        }
      >
        {form && !done ? (
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              action.onClick();
            }}
          >
            {children}
            {alert}
            <button type="submit" hidden />
          </form>
        ) : (
          <>
            {children}
            {alert}
          </>
        )}
      </Dialog>
    </>
  );
}
