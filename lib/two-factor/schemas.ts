// Bodies of the dashboard's two-factor routes (app/api/dashboard/two-factor/**).
import { z } from "zod";

export const ConfirmTwoFactorBody = z.strictObject({
  code: z.string().trim().min(1, "Enter the 6-digit code from your authenticator app.").max(20),
});

/** Turning it off takes the password or a current code (a TOTP code or a recovery code). */
export const DisableTwoFactorBody = z
  .strictObject({
    password: z.string().min(1).max(200).optional(),
    code: z.string().trim().min(1).max(40).optional(),
  })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    message: "Enter your password or a current authentication code.",
    path: ["password"],
  });

export type DisableTwoFactorInput = z.output<typeof DisableTwoFactorBody>;
