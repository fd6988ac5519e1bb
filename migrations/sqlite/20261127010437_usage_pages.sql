-- Drop index "usagerecord_consumer_id_at" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_at`;
-- Drop index "usagerecord_consumer_id_request_id" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_request_id`;
-- Drop index "usagerecord_consumer_id_key_id_at" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_key_id_at`;
-- Drop index "usagerecord_consumer_id_operation_at" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_operation_at`;
-- Drop index "usagerecord_consumer_id_status_group_at" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_status_group_at`;
-- Drop index "usagerecord_consumer_id_error_code_at" from table: "usage_records"
DROP INDEX `usagerecord_consumer_id_error_code_at`;
-- Create "usage_pages" table
CREATE TABLE `usage_pages` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `first_at` datetime NOT NULL, `last_at` datetime NOT NULL, `first_request_id` text NOT NULL, `last_request_id` text NOT NULL, `calls` integer NOT NULL, `calls_2xx` integer NOT NULL DEFAULT (0), `calls_3xx` integer NOT NULL DEFAULT (0), `calls_4xx` integer NOT NULL DEFAULT (0), `calls_429` integer NOT NULL DEFAULT (0), `calls_5xx` integer NOT NULL DEFAULT (0), `key_ids` text NOT NULL, `operations` text NOT NULL, `error_codes` text NOT NULL, `data` blob NOT NULL);
-- Create index "usagepage_consumer_id_last_at_id_first_at" to table: "usage_pages"
CREATE INDEX `usagepage_consumer_id_last_at_id_first_at` ON `usage_pages` (`consumer_id`, `last_at`, `id`, `first_at`);
-- Create index "usagepage_consumer_id_first_at_id_last_at" to table: "usage_pages"
CREATE INDEX `usagepage_consumer_id_first_at_id_last_at` ON `usage_pages` (`consumer_id`, `first_at`, `id`, `last_at`);
-- Create index "usagepage_consumer_id_last_request_id_id_first_request_id" to table: "usage_pages"
CREATE INDEX `usagepage_consumer_id_last_request_id_id_first_request_id` ON `usage_pages` (`consumer_id`, `last_request_id`, `id`, `first_request_id`);
-- Create index "usagepage_consumer_id_first_request_id_id_last_request_id" to table: "usage_pages"
CREATE INDEX `usagepage_consumer_id_first_request_id_id_last_request_id` ON `usage_pages` (`consumer_id`, `first_request_id`, `id`, `last_request_id`);
