-- An event's webhook deliveries (the dashboard's event page) and each delivery's latest attempt are index
-- lookups. The same indexes serve the cascades when an event or a delivery is deleted.
-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_created_at_idx" ON "webhook_deliveries"("event_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "webhook_delivery_attempts_delivery_id_attempted_at_idx" ON "webhook_delivery_attempts"("delivery_id", "attempted_at" DESC);
