-- Onboarding (issue 32; docs/api.md "Onboarding"): companies and addresses can be disabled too
-- (POST /admin/api/companies/{companyId}/disable, /addresses/{addressId}/disable). Nobody orders for a disabled
-- company's facilities; no order ships or bills to a disabled address; lookup lists neither.
ALTER TABLE companies ADD COLUMN disabled_at TEXT;
ALTER TABLE addresses ADD COLUMN disabled_at TEXT;
