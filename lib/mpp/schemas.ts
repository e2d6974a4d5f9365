// Bodies of /mpp (docs/mpp.md).
import { z } from "zod";
import { MAX_CREDENTIAL_LENGTH } from "./parse-credential";

/** POST /mpp/verify: the credential the merchant's server received (`Payment <b64url>` or the bare token). */
export const VerifyCredentialBody = z
  .object({
    credential: z
      .string()
      .min(1)
      .max(MAX_CREDENTIAL_LENGTH + 16),
  })
  .strict();
