// Reads a `Payment` credential (the Authorization header of /mpp/r/:id, the `credential` of POST /mpp/verify)
// into the service method's credential, or says exactly what is wrong with it. Never throws anything else.
import { createHash } from "node:crypto";
import { Credential } from "mppx";
import { canonicalJson } from "../canonical-json";
import { DomainError } from "../errors";
import { MPP_INTENT, MPP_METHOD_NAME, service } from "agent-payments-sdk/mpp";

/** Longest credential read (a real one is well under 2 KB); longer is malformed before any decoding. */
export const MAX_CREDENTIAL_LENGTH = 8 * 1024;

export type CredentialProblem = "malformed_credential" | "method_unsupported" | "invalid_payload" | "invalid_challenge";

export interface ServiceCredential {
  challenge: {
    id: string;
    realm: string;
    method: string;
    intent: string;
    expires?: string;
    description?: string;
    opaque?: string;
    request: Record<string, unknown>;
  };
  /** The challenge's request as the service method reads it. */
  request: { amount: string; currency: string; recipient?: string; description?: string; externalId?: string };
  spt: string;
  /** The credential as mppx parsed it (for Challenge.verify). */
  raw: Credential.Credential;
}

export type ParsedCredential = { ok: true; credential: ServiceCredential } | { ok: false; problem: CredentialProblem; message: string };

export type DecodedCredential =
  | { ok: true; raw: Credential.Credential; challenge: ServiceCredential["challenge"] }
  | { ok: false; problem: "malformed_credential"; message: string };

/** The credential decoded by mppx, whatever its method; `value` is the header value (`Payment <b64url>`) or the bare token. */
export function decodeCredential(value: string): DecodedCredential {
  if (value.length > MAX_CREDENTIAL_LENGTH)
    return fail("malformed_credential", `The credential is longer than ${MAX_CREDENTIAL_LENGTH} characters.`);
  const trimmed = value.trim();
  const token = /^payment\s+/i.test(trimmed) ? trimmed.replace(/^payment\s+/i, "") : trimmed;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(token)) return fail("malformed_credential", "The credential is not base64url.");
  let raw: Credential.Credential;
  try {
    raw = Credential.deserialize(`Payment ${token}`);
  } catch {
    return fail(
      "malformed_credential",
      "The credential does not decode to a Payment credential (base64url JSON with challenge and payload).",
    );
  }
  const challenge = raw.challenge as ServiceCredential["challenge"];
  if (!challenge || typeof challenge !== "object" || typeof challenge.id !== "string" || !challenge.id)
    return fail("malformed_credential", "The credential has no challenge id.");
  return { ok: true, raw, challenge };
}

/** `value` is the header value (`Payment <b64url>`) or the bare base64url token. */
export function parseServiceCredential(value: string): ParsedCredential {
  const decoded = decodeCredential(value);
  if (!decoded.ok) return decoded;
  const { raw, challenge } = decoded;
  if (challenge.method !== MPP_METHOD_NAME)
    return fail("method_unsupported", `Payment method "${String(challenge.method)}" is not supported; use "${MPP_METHOD_NAME}".`);
  if (challenge.intent !== MPP_INTENT)
    return fail("method_unsupported", `Intent "${String(challenge.intent)}" is not supported; use "${MPP_INTENT}".`);
  const request = service.schema.request.safeParse(challenge.request);
  if (!request.success) return fail("invalid_challenge", "The challenge's request is not a service charge request.");
  const payload = service.schema.credential.payload.safeParse(raw.payload);
  if (!payload.success) return fail("invalid_payload", 'The payload must be { "spt": "spt_..." }.');
  return { ok: true, credential: { challenge, request: request.data, spt: payload.data.spt, raw } };
}

function fail<P extends CredentialProblem>(problem: P, message: string): { ok: false; problem: P; message: string } {
  return { ok: false, problem, message };
}

/** The exact credential's identity (challenge, payload and source, canonical JSON): the same credential again is a replay. */
export function credentialHashOf(credential: ServiceCredential): string {
  return createHash("sha256").update(canonicalJson(credential.raw)).digest("hex");
}

/** POST /mpp/verify's refusal of a credential (400 VALIDATION_ERROR on `credential`, with the problem as its reason). */
export function invalidCredential(message: string, reason: string): DomainError {
  return new DomainError("VALIDATION_ERROR", message, { reason, fields: [{ path: "credential", message }] });
}
