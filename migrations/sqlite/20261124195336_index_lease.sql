-- Create "index_leases" table
CREATE TABLE `index_leases` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `name` text NOT NULL, `holder` text NOT NULL, `expires_at` integer NOT NULL, `acquired_at` integer NOT NULL);
-- Create index "indexlease_name" to table: "index_leases"
CREATE UNIQUE INDEX `indexlease_name` ON `index_leases` (`name`);
