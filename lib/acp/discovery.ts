// ACP discovery (docs/acp.md "Discovery"; ACP's discovery RFC): the `/.well-known/acp.json` document an agent reads
// before its first request: the versions this service answers, where the REST API is, and what it implements. It
// is the platform's document (one base URL serves every merchant), so it names no merchant: payment methods and
// handlers are negotiated per session. Public, cacheable for an hour.
import { env } from "../env";
import { SUPPORTED_API_VERSIONS } from "./schemas";

export const DISCOVERY_CACHE_CONTROL = "public, max-age=3600";

export function discoveryDocument() {
  return {
    protocol: {
      name: "acp",
      version: SUPPORTED_API_VERSIONS[SUPPORTED_API_VERSIONS.length - 1],
      supported_versions: [...SUPPORTED_API_VERSIONS], // chronological, the latest last
      documentation_url: `${env.BASE_URL}/docs/api`,
    },
    api_base_url: `${env.BASE_URL}/acp`,
    transports: ["rest"],
    capabilities: {
      // checkout sessions, order webhooks and permalinks, delegate_payment (lib/acp/*)
      services: ["checkout", "orders", "delegate_payment"],
      // 3-D Secure in test mode (lib/acp/three-ds.ts)
      intervention_types: ["3ds"],
    },
  };
}
