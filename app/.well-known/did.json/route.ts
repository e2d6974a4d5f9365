// The deployment's did:web document (docs/receipts.md): public, limited per client IP. x402's offer-receipts name
// their key did:web:<host>#<kid>, which a verifier resolves here.
import { api } from "@/lib/http/api";
import { didDocument } from "@/lib/receipts/did-document";
import * as operation from "./operations";

export const GET = api(operation.GET, ({ tx }) => didDocument(tx));

export const dynamic = "force-dynamic";
