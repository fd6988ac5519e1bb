-- Disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- Create "new_index_cursors" table
CREATE TABLE `new_index_cursors` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `chain` text NOT NULL, `genesis_hash` text NOT NULL, `block` integer NOT NULL, `block_hash` text NOT NULL, `updated_at` integer NOT NULL, `rollbacks` integer NOT NULL DEFAULT (0));
-- Copy rows from old table "index_cursors" to new temporary table "new_index_cursors"
INSERT INTO `new_index_cursors` (`id`, `chain`, `genesis_hash`, `block`, `block_hash`, `updated_at`) SELECT `id`, `chain`, `genesis_hash`, `block`, `block_hash`, `updated_at` FROM `index_cursors`;
-- Drop "index_cursors" table after copying rows
DROP TABLE `index_cursors`;
-- Rename temporary table "new_index_cursors" to "index_cursors"
ALTER TABLE `new_index_cursors` RENAME TO `index_cursors`;
-- Create index "indexcursor_chain" to table: "index_cursors"
CREATE UNIQUE INDEX `indexcursor_chain` ON `index_cursors` (`chain`);
-- Enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;
