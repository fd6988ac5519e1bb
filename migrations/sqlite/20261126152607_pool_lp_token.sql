-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_market_pools" table
CREATE TABLE `new_market_pools` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `address` text NOT NULL, `venue` text NOT NULL, `token0` text NOT NULL, `token1` text NOT NULL, `base_is_token0` bool NOT NULL, `fee_bps` integer NOT NULL, `created_block` integer NOT NULL, `created_at` integer NOT NULL, `reserve0` text NOT NULL, `reserve1` text NOT NULL, `state_block` integer NOT NULL, `lp_token` text NULL);
-- Copy rows from old table "market_pools" to new temporary table "new_market_pools"
INSERT INTO `new_market_pools` (`id`, `chain`, `address`, `venue`, `token0`, `token1`, `base_is_token0`, `fee_bps`, `created_block`, `created_at`, `reserve0`, `reserve1`, `state_block`) SELECT `id`, `chain`, `address`, `venue`, `token0`, `token1`, `base_is_token0`, `fee_bps`, `created_block`, `created_at`, `reserve0`, `reserve1`, `state_block` FROM `market_pools`;
-- Drop "market_pools" table after copying rows
DROP TABLE `market_pools`;
-- Rename temporary table "new_market_pools" to "market_pools"
ALTER TABLE `new_market_pools` RENAME TO `market_pools`;
-- Create index "marketpool_chain_address" to table: "market_pools"
CREATE UNIQUE INDEX `marketpool_chain_address` ON `market_pools` (`chain`, `address`);
-- Create index "marketpool_chain_token0" to table: "market_pools"
CREATE INDEX `marketpool_chain_token0` ON `market_pools` (`chain`, `token0`);
-- Create index "marketpool_chain_token1" to table: "market_pools"
CREATE INDEX `marketpool_chain_token1` ON `market_pools` (`chain`, `token1`);
-- Create index "marketpool_chain_created_at" to table: "market_pools"
CREATE INDEX `marketpool_chain_created_at` ON `market_pools` (`chain`, `created_at`);
-- Create index "marketpool_chain_state_block" to table: "market_pools"
CREATE INDEX `marketpool_chain_state_block` ON `market_pools` (`chain`, `state_block`);
-- Create index "marketpool_chain_lp_token" to table: "market_pools"
CREATE INDEX `marketpool_chain_lp_token` ON `market_pools` (`chain`, `lp_token`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
