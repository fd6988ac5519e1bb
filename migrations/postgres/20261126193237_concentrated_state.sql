-- Modify "market_pools" table
ALTER TABLE "market_pools" ADD COLUMN "sqrt_price_x96" character varying NULL, ADD COLUMN "liquidity" character varying NULL, ADD COLUMN "tick" bigint NULL;
-- Modify "pool_events" table
ALTER TABLE "pool_events" ADD COLUMN "sqrt_price_x96" character varying NULL, ADD COLUMN "liquidity" character varying NULL, ADD COLUMN "tick" bigint NULL;
