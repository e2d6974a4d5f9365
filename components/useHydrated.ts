"use client";
// True once React has hydrated this page in the browser, false on the server and during hydration. A form's
// buttons wait for it: a click before would be lost, and a native submit would put its fields in the URL.
import { useSyncExternalStore } from "react";

const never = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
