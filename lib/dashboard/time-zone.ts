// The time zone dashboard times are shown in: the merchant's (Settings), set once per request by
// requireDashboard. React's cache() keeps one value per server request; outside a server render (a client
// component) it is a fresh value each call, so times there show in UTC, labelled as such.
import { cache } from "react";

const current = cache(() => ({ zone: "UTC" }));

export function setDisplayTimeZone(zone: string): void {
  current().zone = zone;
}

export function displayTimeZone(): string {
  return current().zone;
}
