-- Every delivery still owed: one row per (event, subscribed endpoint), written before the event goes to the queue and
-- deleted once the endpoint has it (or it is dead-lettered). A row whose due_at passes without a consumer touching it
-- was lost between the outbox and the receiver (a message lost by the queue, a consumer killed mid-batch, a restart):
-- the scheduled sweep sends it again (src/webhooks/dispatch.ts). Delivery is at least once.
CREATE TABLE webhook_deliveries_owed (
  event_id TEXT NOT NULL,
  endpoint_id TEXT NOT NULL,
  -- Attempts made so far: a message sent again continues the count (and the backoff) where it stopped.
  attempts INTEGER NOT NULL DEFAULT 0,
  -- When the delivery counts as lost unless a consumer has moved it on (each attempt or wait sets it anew).
  due_at TEXT NOT NULL,
  PRIMARY KEY (event_id, endpoint_id)
) WITHOUT ROWID;
CREATE INDEX webhook_deliveries_owed_due ON webhook_deliveries_owed(due_at);

-- What events dispatched before this table have not delivered yet (no success, not dead-lettered), for endpoints
-- subscribed to them when they were written: owed now, and due at once.
INSERT OR IGNORE INTO webhook_deliveries_owed (event_id, endpoint_id, attempts, due_at)
SELECT e.id, w.id, 0, '1970-01-01T00:00:00.000Z'
FROM outbox_events e
JOIN webhook_endpoints w ON w.tenant_id = e.tenant_id AND w.enabled = 1 AND w.created_at <= e.created_at
WHERE e.dispatched_at IS NOT NULL
  AND EXISTS (SELECT 1 FROM json_each(w.event_types) t WHERE t.value IN ('*', e.type))
  AND NOT EXISTS (
    SELECT 1 FROM webhook_deliveries d
    WHERE d.endpoint_id = w.id AND d.event_id = e.id AND d.outcome IN ('succeeded', 'dead-lettered')
  );
