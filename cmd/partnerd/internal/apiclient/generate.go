// Package apiclient is a Go client of the partner API generated with oapi-codegen from the
// OpenAPI document partnerd serves (openapi.json, written by partnerd openapi). The end-to-end test
// TestGeneratedClient calls the real binary with it, the way a partner's generated client would;
// make check-generated proves both files current.
package apiclient

//go:generate sh -c "go run ../.. openapi > openapi.json"
//go:generate go tool oapi-codegen -config oapi-codegen.yaml openapi.json
