// A merchant's account settings (the dashboard's Settings page): business name, the pay page's brand
// (colour and logo) and the time zone the dashboard shows times in. One UPDATE; validated here.
import { z } from "zod";
import type { Db } from "../db";

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const UpdateSettingsBody = z
  .object({
    name: z.string().trim().min(1, "must not be empty").max(100),
    brandColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour such as #4f46e5")
      .transform((value) => value.toLowerCase())
      .nullable(),
    logoUrl: z
      .string()
      .max(2048)
      .refine((value) => URL.canParse(value) && new URL(value).protocol === "https:", "must be an https:// address of an image")
      .nullable(),
    timeZone: z.string().max(64).refine(isTimeZone, "must be a time zone such as Europe/Paris or UTC"),
  })
  .strict();
export type UpdateSettingsInput = z.output<typeof UpdateSettingsBody>;

export interface MerchantSettings {
  name: string;
  brandColor: string | null;
  logoUrl: string | null;
  timeZone: string;
}

const SELECT = { name: true, brandColor: true, logoUrl: true, timeZone: true } as const;

export function getSettings(db: Db, merchantId: string): Promise<MerchantSettings> {
  return db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: SELECT });
}

export function updateSettings(tx: Db, merchantId: string, input: UpdateSettingsInput): Promise<MerchantSettings> {
  return tx.merchant.update({ where: { id: merchantId }, data: input, select: SELECT });
}

/** Black or white, whichever reads better on `hex` (WCAG relative luminance), for text on the brand colour. */
export function textColorOn(hex: string): "#000000" | "#ffffff" {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  // Contrast with white (1.05 / (L + 0.05)) against contrast with black ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? "#ffffff" : "#000000";
}
