// The cron tick's mail task. In the long-running server the background mail sender (sender.ts) sends,
// woken by every commit that queued a mail: the tick only wakes it. Where nothing runs in the background
// (a serverless host) the tick sends itself, claiming for at most 2 s.
import { env } from "../env";
import { backgroundMailSenderRunning, runMailSenderOnce, wakeBackgroundMailSender } from "./sender";

export async function deliverDueMails(): Promise<number> {
  if (!env.SMTP_URL) return 0;
  if (backgroundMailSenderRunning()) {
    wakeBackgroundMailSender();
    return 0;
  }
  return runMailSenderOnce();
}
