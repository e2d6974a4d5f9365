// The paywall terms page's card form endpoint.
import { handleTermsSubmit } from "../../../../lib/pay/handle-terms-submit";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => handleTermsSubmit(req);
