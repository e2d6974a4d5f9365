"use client";
// The outcome's heading takes the focus when the page shows it (after Pay, the browser lands on a new page
// with nothing focused): a screen reader announces the result and the keyboard starts from it.
import { useEffect, useRef, type ReactNode } from "react";

export function OutcomeHeading({ id, className, children }: { id: string; className: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 id={id} ref={ref} tabIndex={-1} className={`${className} outline-none`} data-testid="outcome-heading">
      {children}
    </h2>
  );
}
