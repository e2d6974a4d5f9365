// The mailed approve/decline link's token: 32 random bytes, only its SHA-256 stored (approval_requests.link_token_hash),
// so the table alone opens nothing; spent once, by one atomic UPDATE (decide.ts). Never logged.
import { createHash, randomBytes } from "node:crypto";
import { env } from "../env";

export const hashApprovalLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function newApprovalLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashApprovalLinkToken(token) };
}

/** The page the mail links to: it shows the request and confirms a decision with a POST (a GET never acts). */
export const approvalLinkUrl = (token: string) => `${env.BASE_URL.replace(/\/$/, "")}/approvals/${encodeURIComponent(token)}`;
