-- Vendors publish their own offers, keyed by their SKU, and contract prices (docs/api.md, "Offers and contract prices").
--
-- An offer row is a revision of the vendor's SKU: terms a quote promises and reads back at order time (product,
-- condition, purchase choice, warranty, lead time, unit of measure, pack quantity, custom fields) are never changed
-- in place; a change of them replaces the row by a new one (replaced_at), so an issued quote keeps its terms for its
-- 30 days. Prices, availability and effective dates change in place: a quote carries its own price.
ALTER TABLE vendor_offers ADD COLUMN sku TEXT NOT NULL DEFAULT '';
ALTER TABLE vendor_offers ADD COLUMN unit_of_measure TEXT NOT NULL DEFAULT 'EA';
ALTER TABLE vendor_offers ADD COLUMN pack_quantity INTEGER NOT NULL DEFAULT 1 CHECK (pack_quantity >= 1);
ALTER TABLE vendor_offers ADD COLUMN quantity_available INTEGER CHECK (quantity_available >= 0);
ALTER TABLE vendor_offers ADD COLUMN quantity_counted_at TEXT;
ALTER TABLE vendor_offers ADD COLUMN effective_from TEXT;
ALTER TABLE vendor_offers ADD COLUMN effective_to TEXT;
ALTER TABLE vendor_offers ADD COLUMN future_price_cents INTEGER CHECK (future_price_cents > 0);
ALTER TABLE vendor_offers ADD COLUMN future_price_from TEXT;
-- Withdrawn (DELETE): no new quotes; issued ones stay good.
ALTER TABLE vendor_offers ADD COLUMN withdrawn_at TEXT;
-- A later revision of the same SKU took this one's place.
ALTER TABLE vendor_offers ADD COLUMN replaced_at TEXT;
ALTER TABLE vendor_offers ADD COLUMN updated_at TEXT NOT NULL DEFAULT '2026-11-26T00:00:00.000Z';

-- The seed's offers get SKUs of their own.
UPDATE vendor_offers SET sku = 'MP-OFFER-' || id WHERE sku = '';

DROP INDEX vendor_offers_product;
CREATE UNIQUE INDEX vendor_offers_current_sku ON vendor_offers(vendor_id, sku) WHERE replaced_at IS NULL;
CREATE INDEX vendor_offers_current_product ON vendor_offers(product_id) WHERE replaced_at IS NULL;

-- Tiers the operator assigns tenants to (a group purchasing organisation's tier, say); agreements may name one.
CREATE TABLE price_tiers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL COLLATE NOCASE UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE tenant_price_tiers (
  tenant_id INTEGER NOT NULL REFERENCES tenants(id),
  tier_id INTEGER NOT NULL REFERENCES price_tiers(id),
  PRIMARY KEY (tenant_id, tier_id)
) WITHOUT ROWID;
CREATE INDEX tenant_price_tiers_tier ON tenant_price_tiers(tier_id);

-- A vendor's price agreement with a buyer tenant (scope tenant), some of its facilities (scope facilities), or every
-- tenant of a tier (scope tier), effective from a day, optionally to a day (exclusive). Ending it (ended_at) stops new
-- quotes at its prices.
CREATE TABLE price_agreements (
  id INTEGER PRIMARY KEY,
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  reference TEXT NOT NULL,
  scope TEXT NOT NULL CHECK (scope IN ('tenant', 'facilities', 'tier')),
  tenant_id INTEGER REFERENCES tenants(id),
  tier_id INTEGER REFERENCES price_tiers(id),
  effective_from TEXT NOT NULL,
  effective_to TEXT,
  ended_at TEXT,
  created_at TEXT NOT NULL,
  -- A random key of the request that created it: its facilities and prices are written in the same batch by this key.
  creation_key TEXT NOT NULL UNIQUE,
  CHECK ((scope = 'tier') = (tier_id IS NOT NULL) AND (scope = 'tier') = (tenant_id IS NULL)),
  CHECK (effective_to IS NULL OR effective_to > effective_from)
);
CREATE INDEX price_agreements_vendor ON price_agreements(vendor_id, id);

CREATE TABLE price_agreement_facilities (
  agreement_id INTEGER NOT NULL REFERENCES price_agreements(id),
  facility_id INTEGER NOT NULL REFERENCES facilities(id),
  PRIMARY KEY (agreement_id, facility_id)
) WITHOUT ROWID;

-- An agreement's price for one of the vendor's SKUs (sku set) or for every offer of the vendor for a product (sku
-- null). A SKU line keeps the product its offer had when the agreement was made: it applies to that product only.
CREATE TABLE price_agreement_prices (
  id INTEGER PRIMARY KEY,
  agreement_id INTEGER NOT NULL REFERENCES price_agreements(id),
  vendor_id INTEGER NOT NULL REFERENCES vendors(id),
  product_id TEXT NOT NULL,
  sku TEXT,
  price_cents INTEGER NOT NULL CHECK (price_cents > 0)
);
CREATE UNIQUE INDEX price_agreement_prices_line ON price_agreement_prices(agreement_id, product_id, coalesce(sku, ''));
-- What catalog detail reads: the contract lines of one vendor's offers of one product.
CREATE INDEX price_agreement_prices_offer ON price_agreement_prices(vendor_id, product_id);

-- Clients that held every scope of their kind keep doing so: vendors may now publish offers and agreements, the
-- operator assign tiers. Clients created with fewer scopes are left as they were.
UPDATE api_clients SET scopes = scopes || ' offers:read offers:write'
  WHERE vendor_id IS NOT NULL AND (' ' || scopes || ' ') LIKE '% fulfilment:read %' AND (' ' || scopes || ' ') LIKE '% fulfilment:write %';
UPDATE api_clients SET scopes = scopes || ' tiers:write'
  WHERE operator = 1 AND (' ' || scopes || ' ') LIKE '% catalog:import %';
