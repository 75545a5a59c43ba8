-- migrations/0034 in the stores: a webhook endpoint that carries a procurement connection's cXML documents.
ALTER TABLE webhook_endpoints ADD COLUMN connection_id INTEGER;
