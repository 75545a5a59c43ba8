-- Traceability (issue 33; docs/api.md "Scan to order", "Vendor API"): the UDIs of the units a vendor shipped in a parcel,
-- as scanned from their labels, checked against the line's product. Lot and serial are what a recall searches for
-- (GET /customer/api/orders/search?q=lotNumber:"..."). `units`: how many units the code names (a case's DI: its quantity).
CREATE TABLE shipped_units (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id),
  line_id INTEGER NOT NULL REFERENCES order_lines(id),
  shipping_document_id INTEGER NOT NULL REFERENCES shipping_documents(id),
  agency TEXT NOT NULL CHECK (agency IN ('GS1', 'HIBCC', 'ICCBBA')),
  device_id TEXT NOT NULL,
  lot TEXT,
  serial TEXT,
  expiry TEXT,
  units INTEGER NOT NULL CHECK (units > 0)
);
CREATE INDEX shipped_units_order ON shipped_units(order_id);
CREATE INDEX shipped_units_lot ON shipped_units(lot, order_id) WHERE lot IS NOT NULL;
CREATE INDEX shipped_units_serial ON shipped_units(serial, order_id) WHERE serial IS NOT NULL;
