// Which redirect URIs a public client may use, by its `application_type` (OpenID Connect Dynamic Client
// Registration 2, RFC 8252): never a fragment nor user information (OAuth 2.1 2.3.1).
// - "native": http on a loopback address (RFC 8252 7.3), a private-use scheme with a reverse domain name
//   (com.example.app:/callback, RFC 8252 7.1), or a claimed https URL (RFC 8252 7.2).
// - "web": https on a public host name only; http or https on a loopback address only on a local installation
//   (BASE_URL on loopback: a developer's machine, the test suites), where the browser and the client share the machine.
// - not stated: the rules registrations had before application_type was read (any of the above), so that
//   existing clients and documents that leave it out keep working.
import { env, isLoopbackUrl } from "../env";

export const APPLICATION_TYPES = ["web", "native"] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+\-]*(\.[a-z0-9+\-]+)+:$/i;

/** Why a redirect URI is refused for a client of this application type (undefined: not stated), or null when acceptable. */
export function redirectUriProblem(raw: string, applicationType?: ApplicationType): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URI";
  }
  if (url.hash || raw.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain user information";
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  const loopbackHttp = url.protocol === "http:" && loopback;
  if (applicationType === "web") {
    // OIDC Registration 2: a web client's redirect URIs are https and not localhost (here: except on a local installation).
    const local = isLoopbackUrl(env.BASE_URL);
    if (url.protocol === "https:" && (!loopback || local)) return null;
    if (loopbackHttp && local) return null;
    return "must be https on a public host name for a web application (application_type 'web'); a native app declares application_type 'native'";
  }
  if (url.protocol === "https:" || loopbackHttp || PRIVATE_USE_SCHEME.test(url.protocol)) return null;
  if (url.protocol === "http:") return "must be https (http only on a loopback address)";
  return "must be https, http on a loopback address, or a private-use scheme such as com.example.app:/callback";
}
