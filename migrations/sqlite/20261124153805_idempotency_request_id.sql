-- Add column "request_id" to table: "idempotency_records"
ALTER TABLE `idempotency_records` ADD COLUMN `request_id` text NULL;
