// A new merchant with its first test and live API keys, and optionally a dashboard login: its owner.
import { hashPassword } from "../crypto/password";
import type { Db } from "../db";
import { ConflictError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import { createId } from "../ids";
import { createApiKey } from "./create-api-key";

export interface NewMerchant {
  name: string;
  email?: string;
  /** Hashed here: inside a transaction, pass `passwordHash` instead (scrypt takes a while, and may wait). */
  password?: string;
  /** The password already hashed (hashPassword), so the hash is not computed inside the transaction. */
  passwordHash?: string;
}

export interface CreatedMerchant {
  merchantId: string;
  testSecretKey: string;
  liveSecretKey: string;
  userEmail?: string;
  userId?: string;
}

export async function createMerchant(tx: Db, input: NewMerchant): Promise<CreatedMerchant> {
  const merchant = await tx.merchant.create({ data: { id: createId("merchant"), name: input.name } });
  const testKey = await createApiKey(tx, merchant.id, false, "Default test key");
  const liveKey = await createApiKey(tx, merchant.id, true, "Default live key");
  let user: { id: string; email: string } | undefined;
  if (input.email && (input.password || input.passwordHash)) {
    const email = input.email.trim().toLowerCase();
    const passwordHash = input.passwordHash ?? (await hashPassword(input.password!));
    // The unique index on email decides a race between two sign-ups with one address.
    user = await tx.user
      .create({
        data: {
          id: createId("user"),
          email,
          passwordHash,
          // Confirmed: sign-up calls this only once its emailed link was used (lib/auth/pending-sign-ups.ts).
          emailConfirmedAt: new Date(),
        },
      })
      .catch((err: unknown) => {
        if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")
          throw new ConflictError(`A user with email ${email} already exists.`);
        throw err;
      });
    // Whoever creates a merchant owns it (docs/dashboard.md, "Team").
    await tx.membership.create({ data: { merchantId: merchant.id, userId: user.id, role: "owner" } });
  }
  return {
    merchantId: merchant.id,
    testSecretKey: testKey.secret,
    liveSecretKey: liveKey.secret,
    ...(user ? { userEmail: user.email, userId: user.id } : {}),
  };
}
