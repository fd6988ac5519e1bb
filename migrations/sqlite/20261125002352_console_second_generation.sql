-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Add column "scopes" to table: "api_keys"
ALTER TABLE `api_keys` ADD COLUMN `scopes` json NULL;
-- Add column "source_cidrs" to table: "api_keys"
ALTER TABLE `api_keys` ADD COLUMN `source_cidrs` json NULL;
-- Create index "auditentry_actor_at" to table: "audit_entries"
CREATE INDEX `auditentry_actor_at` ON `audit_entries` (`actor`, `at`);
-- Create index "auditentry_action_at" to table: "audit_entries"
CREATE INDEX `auditentry_action_at` ON `audit_entries` (`action`, `at`);
-- Add column "access_changed_at" to table: "consumers"
ALTER TABLE `consumers` ADD COLUMN `access_changed_at` datetime NULL;
-- Create "new_usage_records" table
CREATE TABLE `new_usage_records` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `key_id` integer NOT NULL, `operation` text NOT NULL, `status` integer NOT NULL, `cost` integer NOT NULL, `latency_us` integer NOT NULL, `chain` text NOT NULL DEFAULT (''), `request_id` text NOT NULL, `at` datetime NOT NULL, `method` text NOT NULL DEFAULT (''), `path` text NOT NULL DEFAULT (''), `status_group` text NOT NULL DEFAULT (''), `error_code` text NOT NULL DEFAULT (''), `source` text NOT NULL DEFAULT (''), `rate_remaining` integer NULL, `replayed` bool NOT NULL DEFAULT (false), `error_body` blob NULL);
-- Copy rows from old table "usage_records" to new temporary table "new_usage_records"
INSERT INTO `new_usage_records` (`id`, `consumer_id`, `key_id`, `operation`, `status`, `cost`, `latency_us`, `chain`, `request_id`, `at`) SELECT `id`, `consumer_id`, `key_id`, `operation`, `status`, `cost`, `latency_us`, `chain`, `request_id`, `at` FROM `usage_records`;
-- Drop "usage_records" table after copying rows
DROP TABLE `usage_records`;
-- Rename temporary table "new_usage_records" to "usage_records"
ALTER TABLE `new_usage_records` RENAME TO `usage_records`;
-- Create index "usagerecord_consumer_id_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_at` ON `usage_records` (`consumer_id`, `at`);
-- Create index "usagerecord_consumer_id_request_id" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_request_id` ON `usage_records` (`consumer_id`, `request_id`);
-- Create index "usagerecord_consumer_id_key_id_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_key_id_at` ON `usage_records` (`consumer_id`, `key_id`, `at`);
-- Create index "usagerecord_consumer_id_operation_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_operation_at` ON `usage_records` (`consumer_id`, `operation`, `at`);
-- Create index "usagerecord_consumer_id_status_group_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_status_group_at` ON `usage_records` (`consumer_id`, `status_group`, `at`);
-- Create index "usagerecord_consumer_id_error_code_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_error_code_at` ON `usage_records` (`consumer_id`, `error_code`, `at`);
-- Create "new_console_sessions" table
CREATE TABLE `new_console_sessions` (`id` text NOT NULL, `data` blob NOT NULL, `expiry` datetime NOT NULL, `user_id` integer NULL, `created_at` datetime NULL, `last_seen_at` datetime NULL, `user_agent` text NOT NULL DEFAULT (''), `ip` text NOT NULL DEFAULT (''), PRIMARY KEY (`id`));
-- Copy rows from old table "console_sessions" to new temporary table "new_console_sessions"
INSERT INTO `new_console_sessions` (`id`, `data`, `expiry`) SELECT `id`, `data`, `expiry` FROM `console_sessions`;
-- Drop "console_sessions" table after copying rows
DROP TABLE `console_sessions`;
-- Rename temporary table "new_console_sessions" to "console_sessions"
ALTER TABLE `new_console_sessions` RENAME TO `console_sessions`;
-- Create index "consolesession_expiry" to table: "console_sessions"
CREATE INDEX `consolesession_expiry` ON `console_sessions` (`expiry`);
-- Create index "consolesession_user_id" to table: "console_sessions"
CREATE INDEX `consolesession_user_id` ON `console_sessions` (`user_id`);
-- Create "new_console_users" table
CREATE TABLE `new_console_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `email` text NOT NULL, `password_hash` text NULL, `role` text NOT NULL, `consumer_id` integer NULL, `created_at` datetime NOT NULL, `last_sign_in_at` datetime NULL, `team_role` text NULL, `invited_by` text NOT NULL DEFAULT (''), `password_changed_at` datetime NULL, `totp_secret` text NULL, `totp_enabled_at` datetime NULL, `totp_last_step` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "console_users" to new temporary table "new_console_users"
INSERT INTO `new_console_users` (`id`, `email`, `password_hash`, `role`, `consumer_id`, `created_at`, `last_sign_in_at`) SELECT `id`, `email`, `password_hash`, `role`, `consumer_id`, `created_at`, `last_sign_in_at` FROM `console_users`;
-- Drop "console_users" table after copying rows
DROP TABLE `console_users`;
-- Rename temporary table "new_console_users" to "console_users"
ALTER TABLE `new_console_users` RENAME TO `console_users`;
-- Create index "console_users_email_key" to table: "console_users"
CREATE UNIQUE INDEX `console_users_email_key` ON `console_users` (`email`);
-- Create index "consoleuser_consumer_id" to table: "console_users"
CREATE INDEX `consoleuser_consumer_id` ON `console_users` (`consumer_id`);
-- Create "new_usage_hourlies" table
CREATE TABLE `new_usage_hourlies` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `hour` datetime NOT NULL, `calls` integer NOT NULL, `cost` integer NOT NULL, `errors` integer NOT NULL, `calls_2xx` integer NOT NULL DEFAULT (0), `calls_4xx` integer NOT NULL DEFAULT (0), `calls_429` integer NOT NULL DEFAULT (0), `calls_5xx` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "usage_hourlies" to new temporary table "new_usage_hourlies"
INSERT INTO `new_usage_hourlies` (`id`, `consumer_id`, `hour`, `calls`, `cost`, `errors`) SELECT `id`, `consumer_id`, `hour`, `calls`, `cost`, `errors` FROM `usage_hourlies`;
-- Drop "usage_hourlies" table after copying rows
DROP TABLE `usage_hourlies`;
-- Rename temporary table "new_usage_hourlies" to "usage_hourlies"
ALTER TABLE `new_usage_hourlies` RENAME TO `usage_hourlies`;
-- Create index "usagehourly_consumer_id_hour" to table: "usage_hourlies"
CREATE UNIQUE INDEX `usagehourly_consumer_id_hour` ON `usage_hourlies` (`consumer_id`, `hour`);
-- Create index "usagehourly_hour" to table: "usage_hourlies"
CREATE INDEX `usagehourly_hour` ON `usage_hourlies` (`hour`);
-- Create "recovery_codes" table
CREATE TABLE `recovery_codes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `user_id` integer NOT NULL, `code_hash` blob NOT NULL, `created_at` datetime NOT NULL, `used_at` datetime NULL);
-- Create index "recovery_codes_code_hash_key" to table: "recovery_codes"
CREATE UNIQUE INDEX `recovery_codes_code_hash_key` ON `recovery_codes` (`code_hash`);
-- Create index "recoverycode_user_id" to table: "recovery_codes"
CREATE INDEX `recoverycode_user_id` ON `recovery_codes` (`user_id`);
-- Create "usage_latencies" table
CREATE TABLE `usage_latencies` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `hour` datetime NOT NULL, `operation` text NOT NULL, `bucket` integer NOT NULL, `calls` integer NOT NULL);
-- Create index "usagelatency_consumer_id_hour_operation_bucket" to table: "usage_latencies"
CREATE UNIQUE INDEX `usagelatency_consumer_id_hour_operation_bucket` ON `usage_latencies` (`consumer_id`, `hour`, `operation`, `bucket`);
-- Create index "usagelatency_hour" to table: "usage_latencies"
CREATE INDEX `usagelatency_hour` ON `usage_latencies` (`hour`);
-- Create "usage_minutes" table
CREATE TABLE `usage_minutes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `minute` datetime NOT NULL, `calls` integer NOT NULL, `cost` integer NOT NULL, `limited` integer NOT NULL);
-- Create index "usageminute_consumer_id_minute" to table: "usage_minutes"
CREATE UNIQUE INDEX `usageminute_consumer_id_minute` ON `usage_minutes` (`consumer_id`, `minute`);
-- Create index "usageminute_minute" to table: "usage_minutes"
CREATE INDEX `usageminute_minute` ON `usage_minutes` (`minute`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
-- Backfill the request log's status filter for the calls recorded before it
UPDATE "usage_records" SET "status_group" = CASE WHEN "status" = 429 THEN '429' WHEN "status" >= 500 THEN '5xx' WHEN "status" >= 400 THEN '4xx' WHEN "status" >= 300 THEN '3xx' ELSE '2xx' END WHERE "status_group" = '';
