-- Create "console_sessions" table
CREATE TABLE `console_sessions` (`id` text NOT NULL, `data` blob NOT NULL, `expiry` datetime NOT NULL, PRIMARY KEY (`id`));
-- Create index "consolesession_expiry" to table: "console_sessions"
CREATE INDEX `consolesession_expiry` ON `console_sessions` (`expiry`);
-- Create "console_users" table
CREATE TABLE `console_users` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `email` text NOT NULL, `password_hash` text NULL, `role` text NOT NULL, `consumer_id` integer NULL, `created_at` datetime NOT NULL, `last_sign_in_at` datetime NULL);
-- Create index "console_users_email_key" to table: "console_users"
CREATE UNIQUE INDEX `console_users_email_key` ON `console_users` (`email`);
-- Create index "consoleuser_consumer_id" to table: "console_users"
CREATE INDEX `consoleuser_consumer_id` ON `console_users` (`consumer_id`);
-- Create "password_tokens" table
CREATE TABLE `password_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `token_hash` blob NOT NULL, `user_id` integer NOT NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `used_at` datetime NULL);
-- Create index "password_tokens_token_hash_key" to table: "password_tokens"
CREATE UNIQUE INDEX `password_tokens_token_hash_key` ON `password_tokens` (`token_hash`);
-- Create index "passwordtoken_user_id" to table: "password_tokens"
CREATE INDEX `passwordtoken_user_id` ON `password_tokens` (`user_id`);
-- Create index "passwordtoken_expires_at" to table: "password_tokens"
CREATE INDEX `passwordtoken_expires_at` ON `password_tokens` (`expires_at`);
-- Create "usage_hourlies" table
CREATE TABLE `usage_hourlies` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `consumer_id` integer NOT NULL, `hour` datetime NOT NULL, `calls` integer NOT NULL, `cost` integer NOT NULL, `errors` integer NOT NULL);
-- Create index "usagehourly_consumer_id_hour" to table: "usage_hourlies"
CREATE UNIQUE INDEX `usagehourly_consumer_id_hour` ON `usage_hourlies` (`consumer_id`, `hour`);
-- Create index "usagehourly_hour" to table: "usage_hourlies"
CREATE INDEX `usagehourly_hour` ON `usage_hourlies` (`hour`);
