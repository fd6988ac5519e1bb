-- Modify "idempotency_records" table
ALTER TABLE "idempotency_records" ADD COLUMN "request_id" character varying NULL;
