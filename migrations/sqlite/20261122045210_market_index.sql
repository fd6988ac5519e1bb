-- Create "index_blocks" table
CREATE TABLE `index_blocks` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `number` integer NOT NULL, `hash` text NOT NULL);
-- Create index "indexblock_chain_number" to table: "index_blocks"
CREATE UNIQUE INDEX `indexblock_chain_number` ON `index_blocks` (`chain`, `number`);
-- Create "index_cursors" table
CREATE TABLE `index_cursors` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `genesis_hash` text NOT NULL, `block` integer NOT NULL, `block_hash` text NOT NULL, `updated_at` integer NOT NULL);
-- Create index "indexcursor_chain" to table: "index_cursors"
CREATE UNIQUE INDEX `indexcursor_chain` ON `index_cursors` (`chain`);
-- Create "market_pools" table
CREATE TABLE `market_pools` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `address` text NOT NULL, `venue` text NOT NULL, `token0` text NOT NULL, `token1` text NOT NULL, `base_is_token0` bool NOT NULL, `fee_bps` integer NOT NULL, `created_block` integer NOT NULL, `created_at` integer NOT NULL, `reserve0` text NOT NULL, `reserve1` text NOT NULL, `state_block` integer NOT NULL);
-- Create index "marketpool_chain_address" to table: "market_pools"
CREATE UNIQUE INDEX `marketpool_chain_address` ON `market_pools` (`chain`, `address`);
-- Create index "marketpool_chain_token0" to table: "market_pools"
CREATE INDEX `marketpool_chain_token0` ON `market_pools` (`chain`, `token0`);
-- Create index "marketpool_chain_token1" to table: "market_pools"
CREATE INDEX `marketpool_chain_token1` ON `market_pools` (`chain`, `token1`);
-- Create index "marketpool_chain_created_at" to table: "market_pools"
CREATE INDEX `marketpool_chain_created_at` ON `market_pools` (`chain`, `created_at`);
-- Create "market_tokens" table
CREATE TABLE `market_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `address` text NOT NULL, `symbol` text NOT NULL, `name` text NOT NULL, `decimals` integer NOT NULL, `lp` bool NOT NULL DEFAULT (false), `discovered_block` integer NOT NULL);
-- Create index "markettoken_chain_address" to table: "market_tokens"
CREATE UNIQUE INDEX `markettoken_chain_address` ON `market_tokens` (`chain`, `address`);
-- Create index "markettoken_chain_discovered_block" to table: "market_tokens"
CREATE INDEX `markettoken_chain_discovered_block` ON `market_tokens` (`chain`, `discovered_block`);
-- Create "pool_events" table
CREATE TABLE `pool_events` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `pool` text NOT NULL, `block` integer NOT NULL, `log_index` integer NOT NULL, `tx_hash` text NOT NULL, `kind` text NOT NULL, `side` text NOT NULL, `trader` text NOT NULL, `base_amount` text NOT NULL, `quote_amount` text NOT NULL, `reserve0` text NOT NULL, `reserve1` text NOT NULL, `price_usd` real NOT NULL, `price_native` real NOT NULL, `volume_usd` real NOT NULL, `time` integer NOT NULL);
-- Create index "poolevent_chain_block_log_index" to table: "pool_events"
CREATE UNIQUE INDEX `poolevent_chain_block_log_index` ON `pool_events` (`chain`, `block`, `log_index`);
-- Create index "poolevent_chain_pool_time" to table: "pool_events"
CREATE INDEX `poolevent_chain_pool_time` ON `pool_events` (`chain`, `pool`, `time`);
-- Create index "poolevent_chain_time" to table: "pool_events"
CREATE INDEX `poolevent_chain_time` ON `pool_events` (`chain`, `time`);
-- Create "token_balances" table
CREATE TABLE `token_balances` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `token` text NOT NULL, `holder` text NOT NULL, `balance` text NOT NULL);
-- Create index "tokenbalance_chain_token_holder" to table: "token_balances"
CREATE UNIQUE INDEX `tokenbalance_chain_token_holder` ON `token_balances` (`chain`, `token`, `holder`);
-- Create index "tokenbalance_chain_token_balance" to table: "token_balances"
CREATE INDEX `tokenbalance_chain_token_balance` ON `token_balances` (`chain`, `token`, `balance`);
-- Create index "tokenbalance_chain_holder" to table: "token_balances"
CREATE INDEX `tokenbalance_chain_holder` ON `token_balances` (`chain`, `holder`);
-- Create "token_transfers" table
CREATE TABLE `token_transfers` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `token` text NOT NULL, `from` text NOT NULL, `to` text NOT NULL, `value` text NOT NULL, `block` integer NOT NULL, `log_index` integer NOT NULL);
-- Create index "tokentransfer_chain_block_log_index" to table: "token_transfers"
CREATE UNIQUE INDEX `tokentransfer_chain_block_log_index` ON `token_transfers` (`chain`, `block`, `log_index`);
