-- Drop index "usagehourly_hour" from table: "usage_hourlies"
DROP INDEX "usagehourly_hour";
-- Create index "usagehourly_hour_consumer_id_calls_cost_errors_calls_429" to table: "usage_hourlies"
CREATE INDEX "usagehourly_hour_consumer_id_calls_cost_errors_calls_429" ON "usage_hourlies" ("hour", "consumer_id", "calls", "cost", "errors", "calls_429");
