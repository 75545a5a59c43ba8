-- Imports that change a large share of the catalog build its next version beside the live one and switch to it in one
-- transaction (issue 46; src/operator/imports/next-catalog/, docs/architecture.md "Catalog imports"). The job row holds
-- where the build stands, so that a step run again after a crash resumes it: every chunk's writes and the cursor's
-- move commit together.

-- 'rows': the staged rows applied through the live tables' triggers; 'bulk': the next version built and switched to.
ALTER TABLE catalog_imports ADD COLUMN apply_path TEXT CHECK (apply_path IN ('rows', 'bulk'));
-- prepare, copy, create, index, positions, merge, switch, cleanup, done
ALTER TABLE catalog_imports ADD COLUMN build_phase TEXT;
-- copy: the last live rowid copied; create: the last staged seq inserted; index: the last rowid indexed
ALTER TABLE catalog_imports ADD COLUMN build_cursor INTEGER NOT NULL DEFAULT 0;
-- the catalog version the next tables are built for (their sort positions hold for it), set live by the switch
ALTER TABLE catalog_imports ADD COLUMN build_version TEXT;
-- the products of the next version, known once copy and create are done (progress)
ALTER TABLE catalog_imports ADD COLUMN build_rows INTEGER NOT NULL DEFAULT 0;
