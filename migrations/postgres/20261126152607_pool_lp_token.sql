-- Modify "market_pools" table
ALTER TABLE "market_pools" ADD COLUMN "lp_token" character varying NULL;
-- Create index "marketpool_chain_lp_token" to table: "market_pools"
CREATE INDEX "marketpool_chain_lp_token" ON "market_pools" ("chain", "lp_token");
