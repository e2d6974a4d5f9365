// A production server without SMTP_URL cannot reach anyone by mail: sign-up confirmations, password
// resets and invitations stay rows of email_outbox. It starts anyway (a staging copy may not need mail),
// but says so once, at start, in words an operator cannot miss.
import { env, type Env } from "../env";
import { globalSingleton } from "../global-singleton";

export function missingTransportWarning(settings: Pick<Env, "NODE_ENV" | "SMTP_URL"> = env): string | null {
  if (settings.NODE_ENV !== "production" || settings.SMTP_URL) return null;
  return (
    "WARNING: SMTP_URL is not set, so this server sends no mail: sign-up confirmation, password reset and " +
    "invitation mails cannot reach anyone (they are only kept in the email_outbox table). Set SMTP_URL " +
    '(smtp://user:password@host:587 or smtps://...) and MAIL_FROM; see docs/operations.md, "Mail".'
  );
}

export function warnWhenMailCannotLeave(): void {
  const warning = missingTransportWarning();
  const once = globalSingleton("mail.transport-warning", () => ({ warned: false }));
  if (!warning || once.warned) return;
  once.warned = true;
  console.warn(warning);
}
