// An address under /dashboard that names no page: the dashboard's own 404 (inside its layout and
// navigation) instead of the framework's bare one.
import { notFound } from "next/navigation";

export default function UnknownDashboardPage(): never {
  notFound();
}
