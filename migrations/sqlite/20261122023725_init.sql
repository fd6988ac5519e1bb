-- Create "api_keys" table
CREATE TABLE `api_keys` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `name` text NOT NULL, `hash` blob NOT NULL, `prefix` text NOT NULL, `created_at` datetime NOT NULL, `last_used_at` datetime NULL, `expires_at` datetime NULL, `revoked_at` datetime NULL, `rotated_from_id` integer NULL, `consumer_id` integer NOT NULL, CONSTRAINT `api_keys_api_keys_successors` FOREIGN KEY (`rotated_from_id`) REFERENCES `api_keys` (`id`) ON DELETE SET NULL, CONSTRAINT `api_keys_consumers_keys` FOREIGN KEY (`consumer_id`) REFERENCES `consumers` (`id`) ON DELETE NO ACTION);
-- Create index "api_keys_hash_key" to table: "api_keys"
CREATE UNIQUE INDEX `api_keys_hash_key` ON `api_keys` (`hash`);
-- Create index "apikey_consumer_id" to table: "api_keys"
CREATE INDEX `apikey_consumer_id` ON `api_keys` (`consumer_id`);
-- Create "audit_entries" table
CREATE TABLE `audit_entries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `actor` text NOT NULL, `action` text NOT NULL, `consumer_id` integer NULL, `target` text NOT NULL DEFAULT (''), `reason` text NOT NULL DEFAULT (''), `before` json NULL, `after` json NULL, `at` datetime NOT NULL);
-- Create index "auditentry_consumer_id_at" to table: "audit_entries"
CREATE INDEX `auditentry_consumer_id_at` ON `audit_entries` (`consumer_id`, `at`);
-- Create "confirmation_tokens" table
CREATE TABLE `confirmation_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `token_hash` blob NOT NULL, `consumer_id` integer NOT NULL, `chain` text NOT NULL, `binding` json NOT NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `confirmed_at` datetime NULL);
-- Create index "confirmation_tokens_token_hash_key" to table: "confirmation_tokens"
CREATE UNIQUE INDEX `confirmation_tokens_token_hash_key` ON `confirmation_tokens` (`token_hash`);
-- Create index "confirmationtoken_consumer_id" to table: "confirmation_tokens"
CREATE INDEX `confirmationtoken_consumer_id` ON `confirmation_tokens` (`consumer_id`);
-- Create index "confirmationtoken_expires_at" to table: "confirmation_tokens"
CREATE INDEX `confirmationtoken_expires_at` ON `confirmation_tokens` (`expires_at`);
-- Create "consumers" table
CREATE TABLE `consumers` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `name` text NOT NULL, `access_enabled` bool NOT NULL DEFAULT (false), `rate_per_minute` integer NOT NULL DEFAULT (60), `burst` integer NOT NULL DEFAULT (60), `price` text NOT NULL DEFAULT (''), `disabled_operations` json NULL, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL);
-- Create index "consumers_name_key" to table: "consumers"
CREATE UNIQUE INDEX `consumers_name_key` ON `consumers` (`name`);
-- Create "idempotency_records" table
CREATE TABLE `idempotency_records` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `key_id` integer NOT NULL, `idempotency_key` text NOT NULL, `body_hash` blob NOT NULL, `done` bool NOT NULL DEFAULT (false), `status` integer NOT NULL DEFAULT (0), `response` blob NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `lease_until` datetime NOT NULL);
-- Create index "idempotencyrecord_key_id_idempotency_key" to table: "idempotency_records"
CREATE UNIQUE INDEX `idempotencyrecord_key_id_idempotency_key` ON `idempotency_records` (`key_id`, `idempotency_key`);
-- Create index "idempotencyrecord_expires_at" to table: "idempotency_records"
CREATE INDEX `idempotencyrecord_expires_at` ON `idempotency_records` (`expires_at`);
-- Create "scope_grants" table
CREATE TABLE `scope_grants` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `scope` text NOT NULL, `consumer_id` integer NOT NULL, CONSTRAINT `scope_grants_consumers_scopes` FOREIGN KEY (`consumer_id`) REFERENCES `consumers` (`id`) ON DELETE NO ACTION);
-- Create index "scopegrant_consumer_id_scope" to table: "scope_grants"
CREATE UNIQUE INDEX `scopegrant_consumer_id_scope` ON `scope_grants` (`consumer_id`, `scope`);
-- Create "source_allows" table
CREATE TABLE `source_allows` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `cidr` text NOT NULL, `consumer_id` integer NOT NULL, CONSTRAINT `source_allows_consumers_sources` FOREIGN KEY (`consumer_id`) REFERENCES `consumers` (`id`) ON DELETE NO ACTION);
-- Create index "sourceallow_consumer_id_cidr" to table: "source_allows"
CREATE UNIQUE INDEX `sourceallow_consumer_id_cidr` ON `source_allows` (`consumer_id`, `cidr`);
-- Create "usage_dailies" table
CREATE TABLE `usage_dailies` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `key_id` integer NOT NULL, `day` text NOT NULL, `operation` text NOT NULL, `calls` integer NOT NULL, `cost` integer NOT NULL, `errors` integer NOT NULL);
-- Create index "usagedaily_key_id_day_operation" to table: "usage_dailies"
CREATE UNIQUE INDEX `usagedaily_key_id_day_operation` ON `usage_dailies` (`key_id`, `day`, `operation`);
-- Create index "usagedaily_consumer_id_day" to table: "usage_dailies"
CREATE INDEX `usagedaily_consumer_id_day` ON `usage_dailies` (`consumer_id`, `day`);
-- Create "usage_records" table
CREATE TABLE `usage_records` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `key_id` integer NOT NULL, `operation` text NOT NULL, `status` integer NOT NULL, `cost` integer NOT NULL, `latency_us` integer NOT NULL, `chain` text NOT NULL DEFAULT (''), `request_id` text NOT NULL, `at` datetime NOT NULL);
-- Create index "usagerecord_consumer_id_at" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_at` ON `usage_records` (`consumer_id`, `at`);
-- Create index "usagerecord_consumer_id_request_id" to table: "usage_records"
CREATE INDEX `usagerecord_consumer_id_request_id` ON `usage_records` (`consumer_id`, `request_id`);
-- Create index "usagerecord_at" to table: "usage_records"
CREATE INDEX `usagerecord_at` ON `usage_records` (`at`);
