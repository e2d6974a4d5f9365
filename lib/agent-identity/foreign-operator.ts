// Which Signature-Agent URLs name a foreign agent operator, and which operators this installation trusts
// (docs/cards.md "Foreign agent operators"): the operator is an origin other than ours, named by itself or by its
// directory URL; trusted when AGENT_DIRECTORIES_TRUSTED lists it (or is `*`), an `http:` one only where private
// addresses are allowed (AGENT_DIRECTORY_ALLOW_PRIVATE_URLS).
import { env } from "../env";
import { DIRECTORY_PATH } from "./foreign-directory";

/** The operator's origin when `url` names a foreign one (its origin or its directory), else null. */
export function foreignOperatorOf(url: string, ownOrigin: string): string | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  if (parsed.origin === new URL(ownOrigin).origin || parsed.username || parsed.password || parsed.search || parsed.hash) return null;
  return parsed.pathname === "/" || parsed.pathname === DIRECTORY_PATH ? parsed.origin : null;
}

export function isTrustedOperator(origin: string): boolean {
  if (origin.startsWith("http:") && !env.AGENT_DIRECTORY_ALLOW_PRIVATE_URLS) return false;
  const trusted = env.AGENT_DIRECTORIES_TRUSTED;
  return trusted === "*" || trusted.includes(origin);
}
