// Package ent holds the generated ent client; the schema lives in ./schema.
package ent

//go:generate go tool ent generate --feature sql/upsert,sql/versioned-migration,sql/execquery,sql/lock ./schema
