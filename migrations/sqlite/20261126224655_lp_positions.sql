-- Create "lp_positions" table
CREATE TABLE `lp_positions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `manager` text NOT NULL, `position_id` text NOT NULL, `pool` text NOT NULL, `owner` text NOT NULL, `tick_lower` integer NOT NULL, `tick_upper` integer NOT NULL, `liquidity` text NOT NULL, `created_block` integer NOT NULL);
-- Create index "lpposition_chain_manager_position_id" to table: "lp_positions"
CREATE UNIQUE INDEX `lpposition_chain_manager_position_id` ON `lp_positions` (`chain`, `manager`, `position_id`);
-- Create index "lpposition_chain_pool_liquidity" to table: "lp_positions"
CREATE INDEX `lpposition_chain_pool_liquidity` ON `lp_positions` (`chain`, `pool`, `liquidity`);
-- Create "lp_position_changes" table
CREATE TABLE `lp_position_changes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `manager` text NOT NULL, `position_id` text NOT NULL, `kind` text NOT NULL, `liquidity` text NOT NULL, `from` text NOT NULL, `block` integer NOT NULL, `log_index` integer NOT NULL);
-- Create index "lppositionchange_chain_block_log_index" to table: "lp_position_changes"
CREATE UNIQUE INDEX `lppositionchange_chain_block_log_index` ON `lp_position_changes` (`chain`, `block`, `log_index`);
