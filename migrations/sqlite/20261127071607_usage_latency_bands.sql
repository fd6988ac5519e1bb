-- Create "usage_latency_bands" table
CREATE TABLE `usage_latency_bands` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `hour` datetime NOT NULL, `operation` text NOT NULL, `band` integer NOT NULL, `calls0` integer NOT NULL DEFAULT (0), `calls1` integer NOT NULL DEFAULT (0), `calls2` integer NOT NULL DEFAULT (0), `calls3` integer NOT NULL DEFAULT (0), `calls4` integer NOT NULL DEFAULT (0), `calls5` integer NOT NULL DEFAULT (0), `calls6` integer NOT NULL DEFAULT (0), `calls7` integer NOT NULL DEFAULT (0));
-- Create index "usagelatencyband_consumer_id_hour_operation_band" to table: "usage_latency_bands"
CREATE UNIQUE INDEX `usagelatencyband_consumer_id_hour_operation_band` ON `usage_latency_bands` (`consumer_id`, `hour`, `operation`, `band`);
-- Create index "usagelatencyband_hour" to table: "usage_latency_bands"
CREATE INDEX `usagelatencyband_hour` ON `usage_latency_bands` (`hour`);
-- Move each hour's histogram rows, one a bucket, into bands of 8 buckets, and drop the old table.
INSERT INTO "usage_latency_bands" ("consumer_id", "hour", "operation", "band", "calls0", "calls1", "calls2", "calls3", "calls4", "calls5", "calls6", "calls7")
SELECT "consumer_id", "hour", "operation", "bucket" / 8,
  SUM(CASE WHEN "bucket" % 8 = 0 THEN "calls" ELSE 0 END), SUM(CASE WHEN "bucket" % 8 = 1 THEN "calls" ELSE 0 END),
  SUM(CASE WHEN "bucket" % 8 = 2 THEN "calls" ELSE 0 END), SUM(CASE WHEN "bucket" % 8 = 3 THEN "calls" ELSE 0 END),
  SUM(CASE WHEN "bucket" % 8 = 4 THEN "calls" ELSE 0 END), SUM(CASE WHEN "bucket" % 8 = 5 THEN "calls" ELSE 0 END),
  SUM(CASE WHEN "bucket" % 8 = 6 THEN "calls" ELSE 0 END), SUM(CASE WHEN "bucket" % 8 = 7 THEN "calls" ELSE 0 END)
FROM "usage_latencies" GROUP BY "consumer_id", "hour", "operation", "bucket" / 8;
DROP TABLE "usage_latencies";
