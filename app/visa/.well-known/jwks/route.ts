// GET Visa's key store as a JWKS (public; docs/cards.md): every active Visa agent key, kid = the signatures' keyid.
import { asDirectory } from "@/lib/agent-identity/directory-response";
import { keyDirectory } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = asDirectory(
  api(operation.GET, ({ tx }) => keyDirectory(tx, "visa")),
  "application/jwk-set+json",
);

export const dynamic = "force-dynamic";
