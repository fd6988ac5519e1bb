-- Create index "marketpool_chain_state_block" to table: "market_pools"
CREATE INDEX `marketpool_chain_state_block` ON `market_pools` (`chain`, `state_block`);
