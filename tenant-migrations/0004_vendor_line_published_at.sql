-- When each line was last handed to the queue (epoch ms): the reconciliation sweep leaves a vendor alone while a line of
-- it was published too recently to have reached its projection yet, instead of sending all its lines again.
ALTER TABLE vendor_line_changes ADD COLUMN published_at INTEGER;
