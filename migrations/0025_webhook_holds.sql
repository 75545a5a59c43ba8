-- In order per order (docs/api.md, "Webhooks"): a delivery held behind an earlier event of its order that the endpoint
-- has not got yet. The earlier event's success (or dead letter) sends the held ones on at once, in the same
-- transaction that records it; a held row's due_at is the sweep's fallback (src/webhooks/delivery.ts).
ALTER TABLE webhook_deliveries_owed ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
