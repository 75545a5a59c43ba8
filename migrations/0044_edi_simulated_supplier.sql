-- A test partner whose supplier is simulated (docs/edi.md, "The sandbox's simulated supplier"): Medparts answers its
-- 850s itself, as the supplier's translator would, with a 997 and, as the sandbox's schedule moves the order, an 855,
-- an 856 and an 810, each taken in as the partner's (recorded, checked and acknowledged, never applied).
ALTER TABLE edi_partners ADD COLUMN simulated_supplier INTEGER NOT NULL DEFAULT 0 CHECK (simulated_supplier IN (0, 1));
