// Push notification deliveries (A2A v1.0 section 4.3.3; docs/a2a.md "Push notifications"): each event of a task
// (the SDK's StreamResponse, serialized by the SDK's serializer of the version the webhook was registered over)
// POSTed to every config of the task, in order per task. The SDK's DefaultPushNotificationSender cannot be used as
// is: it fetches any URL (no SSRF guard) and signs nothing. So this sender, in its place:
// - sends through the webhooks' guarded POST (lib/webhooks/send-delivery.ts: non-public addresses refused at
//   connect time unless private addresses are allowed, the URL checked again before each send, no redirects);
// - includes the buyer's own credentials as the spec requires (`Authorization: <scheme> <credentials>`, or the
//   legacy token in X-A2A-Notification-Token);
// - signs every delivery: `A2A-Notification-Signature` is a JWT (ES256, the service's signing key, verifiable
//   against GET /.well-known/jwks.json) with iss = the service, aud = the webhook URL, iat/exp, a unique jti, the
//   task id and request_body_sha256 (base64url SHA-256 of the exact body). When the buyer asked for a Bearer scheme
//   without credentials, that JWT is also the Bearer token (the spec's JWT + JWKS flow).
// A failed delivery is retried twice (0.5 s, then 2 s); delivery never blocks the task or its stream.
import { createHash, randomUUID } from "node:crypto";
import type { StreamResponse, Task } from "@a2a-js/sdk";
import { V03PushNotificationSerializer } from "@a2a-js/sdk/compat/v0_3/server";
import {
  V1PushNotificationSerializer,
  type PushNotificationSender,
  type PushNotificationSerializer,
  type PushNotificationStore,
  type ServerCallContext,
} from "@a2a-js/sdk/server";
import { SignJWT } from "jose";
import { getDb } from "../db";
import { env } from "../env";
import { activeSigningKey } from "../receipts/signing-key";
import { checkWebhookUrl, mayUsePrivateAddresses } from "../security/address-policy";
import { sendSignedPost } from "../webhooks/send-delivery";
import { globalSingleton } from "../global-singleton";

export const SIGNATURE_HEADER = "A2A-Notification-Signature";
export const LEGACY_TOKEN_HEADER = "X-A2A-Notification-Token";
const SIGNATURE_TTL_SECONDS = 300;
const RETRY_DELAYS_MS = [500, 2_000];

const serializers: Record<string, PushNotificationSerializer> = {
  "1.0": new V1PushNotificationSerializer(),
  "0.3": new V03PushNotificationSerializer(),
};

function taskIdOf(event: StreamResponse): string {
  const payload = event.payload;
  if (!payload) return "";
  return payload.$case === "task" ? payload.value.id : payload.value.taskId;
}

/** The delivery's signature: a JWT binding the body, the webhook and the task, signed with the service's key. */
export async function signDelivery(url: string, taskId: string, body: string): Promise<string> {
  const key = await activeSigningKey(getDb());
  return new SignJWT({ taskId, task_id: taskId, request_body_sha256: createHash("sha256").update(body).digest("base64url") })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .setIssuer(env.BASE_URL)
    .setAudience(url)
    .setIssuedAt()
    .setExpirationTime(`${SIGNATURE_TTL_SECONDS}s`)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

async function deliver(url: string, body: string, headers: Record<string, string>): Promise<boolean> {
  const allowPrivate = mayUsePrivateAddresses();
  for (let attempt = 0; ; attempt++) {
    try {
      await checkWebhookUrl(url, allowPrivate); // names may resolve elsewhere now; the agent checks the connection too
    } catch {
      return false;
    }
    const result = await sendSignedPost(url, body, headers, allowPrivate);
    if (result.ok) return true;
    if (attempt >= RETRY_DELAYS_MS.length) {
      console.warn(
        `a2a push notification to a webhook failed: ${result.error ?? "http_error"} (status ${result.responseStatus ?? "none"})`,
      );
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
  }
}

/** Deliveries of one task, one after another (the events' order), in this process. */
function chains(): Map<string, Promise<void>> {
  return globalSingleton("a2a.push-chains", () => new Map<string, Promise<void>>());
}

export class SignedPushNotificationSender implements PushNotificationSender {
  constructor(private readonly store: PushNotificationStore) {}

  // The SDK calls send() for each event without awaiting it: the event takes its place in the task's chain at once,
  // before any await, and its configs are read inside the chain, so a later event's read cannot overtake it.
  async send(event: StreamResponse, context: ServerCallContext, task?: Task): Promise<void> {
    const taskId = taskIdOf(event);
    if (!taskId) return;
    const previous = chains().get(taskId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const configs = await this.store.loadWithMetadata!(taskId, context);
        await Promise.all(
          configs.map(async ({ config, wireVersion }) => {
            const { body } = (serializers[wireVersion] ?? serializers["1.0"]).serialize(event, task);
            const signature = await signDelivery(config.url, taskId, body);
            const headers: Record<string, string> = { [SIGNATURE_HEADER]: signature, "A2A-Version": wireVersion };
            const auth = config.authentication;
            if (auth?.scheme && auth.credentials) headers.Authorization = `${auth.scheme} ${auth.credentials}`;
            else if (auth?.scheme?.toLowerCase() === "bearer") headers.Authorization = `Bearer ${signature}`;
            if (config.token) headers[LEGACY_TOKEN_HEADER] = config.token;
            await deliver(config.url, body, headers);
          }),
        );
      });
    chains().set(taskId, next);
    await next.finally(() => {
      if (chains().get(taskId) === next) chains().delete(taskId);
    });
  }
}
