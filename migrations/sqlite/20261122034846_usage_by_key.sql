-- Create index "usagerecord_consumer_id_key_id_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_key_id_at` ON `usage_records` (`consumer_id`, `key_id`, `at`);
