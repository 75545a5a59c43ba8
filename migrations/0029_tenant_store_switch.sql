-- The switch of a tenant to its stores (docs/tenant-stores.md): a move asked with {"switch": true} ends in 'store'
-- instead of 'copied' when its copy is verified equal, inside the read-only window, so no write falls between the
-- copy and the switch. Kept on the row so that a move resumed after a crash still knows.
ALTER TABLE tenant_stores ADD COLUMN switch_after INTEGER NOT NULL DEFAULT 0 CHECK (switch_after IN (0, 1));
