-- A2A/AP2 charges that wait for the payer's approval (docs/approvals.md "A2A and AP2"): the task the request
-- answers, the AP2 v0.2 checkout it pays, and the open mandate's spend held while it waits (given back on decline
-- or expiry).
ALTER TABLE approval_requests ADD COLUMN a2a_task_id text;
ALTER TABLE approval_requests ADD COLUMN ap2_checkout_id text;
ALTER TABLE approval_requests ADD COLUMN held_spend jsonb;
CREATE INDEX approval_requests_a2a_task_id_idx ON approval_requests (a2a_task_id);
