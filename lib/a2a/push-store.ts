// The A2A push notification configs in Postgres (table a2a_push_configs; docs/a2a.md "Push notifications"): the
// SDK's PushNotificationStore, scoped like the task store (merchant agent, mode, the buyer). The webhook URL passes
// the outbound SSRF guard when it is registered (lib/security/address-policy.ts) and again at each delivery
// (push-sender.ts). The buyer's credentials for its webhook are sealed at rest (they are sent back, so not hashed)
// and never logged. At most MAX_CONFIGS per task, decided by the inserting statement.
import { randomUUID } from "node:crypto";
import type { TaskPushNotificationConfig } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from "@a2a-js/sdk/server";
import { openSecret, sealSecret } from "../crypto/secret-box";
import { getDb } from "../db";
import { ValidationError } from "../errors";
import type { Scope } from "../scope";
import { checkWebhookUrl } from "../security/address-policy";
import { ownerOf } from "./task-store";

const MAX_CONFIGS = 10;
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 4096;

interface Row {
  task_id: string;
  id: string;
  url: string;
  scheme: string | null;
  credentials_sealed: string | null;
  token_sealed: string | null;
  protocol_version: string;
}

function configOf(row: Row): TaskPushNotificationConfig {
  return {
    tenant: "",
    id: row.id,
    taskId: row.task_id,
    url: row.url,
    token: row.token_sealed ? openSecret(row.token_sealed) : "",
    authentication:
      row.scheme || row.credentials_sealed
        ? { scheme: row.scheme ?? "", credentials: row.credentials_sealed ? openSecret(row.credentials_sealed) : "" }
        : undefined,
  };
}

function malformed(message: string): never {
  throw new RequestMalformedError(message);
}

/** The webhook URL as the SSRF guard allows it (public http(s) addresses; loopback only where webhooks may use it). */
export async function checkedPushUrl(raw: string): Promise<string> {
  if (!raw) malformed("url is required: the webhook the agent POSTs the task's updates to.");
  if (raw.length > MAX_URL_LENGTH) malformed(`url is longer than ${MAX_URL_LENGTH} characters.`);
  try {
    return await checkWebhookUrl(raw);
  } catch (err) {
    if (err instanceof ValidationError) malformed(`url ${err.message.replace(/^url /, "")}`);
    throw err;
  }
}

export class PostgresPushNotificationStore implements PushNotificationStore {
  constructor(private readonly scope: Scope) {}

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    const url = await checkedPushUrl(config.url);
    const credentials = config.authentication?.credentials ?? "";
    const token = config.token ?? "";
    if (credentials.length > MAX_SECRET_LENGTH || token.length > MAX_SECRET_LENGTH) malformed("credentials or token too long.");
    if ((config.id ?? "").length > 200) malformed("id is longer than 200 characters.");
    if (!config.id) config.id = randomUUID(); // the SDK reads the assigned id back from the same object
    config.url = url;
    const version = context.requestedVersion || "0.3";
    const owner = ownerOf(context);
    const saved = await getDb().$executeRaw`
      INSERT INTO a2a_push_configs (task_id, id, merchant_id, livemode, owner, url, scheme, credentials_sealed, token_sealed, protocol_version)
      SELECT ${taskId}, ${config.id}, ${this.scope.merchantId}, ${this.scope.livemode}, ${owner}, ${url},
             ${config.authentication?.scheme || null}, ${credentials ? sealSecret(credentials) : null}, ${token ? sealSecret(token) : null}, ${version}
       WHERE (SELECT count(*) FROM a2a_push_configs WHERE task_id = ${taskId}) < ${MAX_CONFIGS}
          OR EXISTS (SELECT 1 FROM a2a_push_configs WHERE task_id = ${taskId} AND id = ${config.id})
      ON CONFLICT (task_id, id) DO UPDATE SET url = EXCLUDED.url, scheme = EXCLUDED.scheme, credentials_sealed = EXCLUDED.credentials_sealed,
        token_sealed = EXCLUDED.token_sealed, protocol_version = EXCLUDED.protocol_version
       WHERE a2a_push_configs.merchant_id = EXCLUDED.merchant_id AND a2a_push_configs.livemode = EXCLUDED.livemode
         AND a2a_push_configs.owner = EXCLUDED.owner`;
    if (saved !== 1) malformed(`A task takes at most ${MAX_CONFIGS} push notification configs (or this config id is taken).`);
  }

  private async rows(taskId: string, context: ServerCallContext): Promise<Row[]> {
    return getDb().$queryRaw<Row[]>`
      SELECT task_id, id, url, scheme, credentials_sealed, token_sealed, protocol_version FROM a2a_push_configs
       WHERE task_id = ${taskId} AND merchant_id = ${this.scope.merchantId} AND livemode = ${this.scope.livemode} AND owner = ${ownerOf(context)}
       ORDER BY created_at, id`;
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.rows(taskId, context)).map(configOf);
  }

  async loadWithMetadata(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    return (await this.rows(taskId, context)).map((row) => ({ config: configOf(row), wireVersion: row.protocol_version }));
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    const owner = ownerOf(context);
    if (configId === undefined)
      await getDb()
        .$executeRaw`DELETE FROM a2a_push_configs WHERE task_id = ${taskId} AND merchant_id = ${this.scope.merchantId} AND livemode = ${this.scope.livemode} AND owner = ${owner}`;
    else
      await getDb()
        .$executeRaw`DELETE FROM a2a_push_configs WHERE task_id = ${taskId} AND id = ${configId} AND merchant_id = ${this.scope.merchantId} AND livemode = ${this.scope.livemode} AND owner = ${owner}`;
  }
}
