-- Drop index "usagerecord_at" from table: "usage_records"
DROP INDEX `usagerecord_at`;
