-- Modify "index_cursors" table
ALTER TABLE "index_cursors" ADD COLUMN "rollbacks" bigint NOT NULL DEFAULT 0;
