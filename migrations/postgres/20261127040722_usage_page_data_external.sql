-- A page's data is zstd-compressed already: store it out of line without TOAST's compression,
-- which would spend CPU on every write to find nothing to gain (PostgreSQL only; SQLite has no
-- such setting).
ALTER TABLE "usage_pages" ALTER COLUMN "data" SET STORAGE EXTERNAL;
