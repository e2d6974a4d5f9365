// GET the Mastercard network's Web Bot Auth key directory (public): every active agent key, kid = thumbprint.
import { asDirectory } from "@/lib/agent-identity/directory-response";
import { keyDirectory } from "@/lib/agent-identity/agent-keys";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const GET = asDirectory(api(operation.GET, ({ tx }) => keyDirectory(tx, "mastercard")));

export const dynamic = "force-dynamic";
