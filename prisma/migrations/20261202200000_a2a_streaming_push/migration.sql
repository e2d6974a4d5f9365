-- A2A push notification configs (docs/a2a.md "Push notifications"): the webhooks a buyer registered for one of its
-- tasks (CreateTaskPushNotificationConfig, or SendMessage's configuration). Scoped like the task (merchant agent,
-- mode, owner = the buyer's merchant id). The buyer's credentials for its webhook (AuthenticationInfo.credentials,
-- the legacy token) are sealed (lib/crypto/secret-box.ts): the agent must send them back, so they cannot be hashed.
CREATE TABLE "a2a_push_configs" (
    "task_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "owner" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "scheme" TEXT,
    "credentials_sealed" TEXT,
    "token_sealed" TEXT,
    "protocol_version" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_push_configs_pkey" PRIMARY KEY ("task_id", "id")
);
-- No foreign key to a2a_tasks: SendMessage's configuration registers the webhook before the task's first save.
CREATE INDEX "a2a_push_configs_scope_idx" ON "a2a_push_configs"("merchant_id", "livemode", "owner", "task_id");
