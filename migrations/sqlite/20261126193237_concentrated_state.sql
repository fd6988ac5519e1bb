-- Add column "sqrt_price_x96" to table: "pool_events"
ALTER TABLE `pool_events` ADD COLUMN `sqrt_price_x96` text NULL;
-- Add column "liquidity" to table: "pool_events"
ALTER TABLE `pool_events` ADD COLUMN `liquidity` text NULL;
-- Add column "tick" to table: "pool_events"
ALTER TABLE `pool_events` ADD COLUMN `tick` integer NULL;
-- Add column "sqrt_price_x96" to table: "market_pools"
ALTER TABLE `market_pools` ADD COLUMN `sqrt_price_x96` text NULL;
-- Add column "liquidity" to table: "market_pools"
ALTER TABLE `market_pools` ADD COLUMN `liquidity` text NULL;
-- Add column "tick" to table: "market_pools"
ALTER TABLE `market_pools` ADD COLUMN `tick` integer NULL;
