"use client";
// Copies a value to the clipboard and says so (politely announced).
import { useState } from "react";
import { Button } from "./Button";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <>
      <Button
        size="sm"
        onClick={() =>
          navigator.clipboard?.writeText(value).then(
            () => {
              setCopied(true);
              setTimeout(() => setCopied(false), 2_000);
            },
            () => setCopied(false),
          )
        }
      >
        {copied ? "Copied" : label}
      </Button>
      <span className="sr-only" aria-live="polite">
        {copied ? "Copied to the clipboard." : ""}
      </span>
    </>
  );
}
