package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/partner-platform/partnerd/api"
	"github.com/partner-platform/partnerd/console"
)

// consoleEndpoints describes the API's keyed operations for the console's plan form: each with its
// scope (api.Operations) and its method and path (the OpenAPI document, api.Document).
func consoleEndpoints() ([]console.Endpoint, error) {
	raw, err := api.Document()
	if err != nil {
		return nil, err
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("read the OpenAPI document: %w", err)
	}
	where := map[string][2]string{}
	for path, methods := range doc.Paths {
		for method, raw := range methods {
			var op struct {
				OperationID string `json:"operationId"`
			}
			// Besides operations a path item may hold parameters or a summary: not objects with an id.
			if json.Unmarshal(raw, &op) == nil && op.OperationID != "" {
				where[op.OperationID] = [2]string{strings.ToUpper(method), path}
			}
		}
	}
	ops := api.Operations()
	out := make([]console.Endpoint, len(ops))
	for i, op := range ops {
		mp := where[op.ID]
		out[i] = console.Endpoint{ID: op.ID, Scope: op.Scope, Method: mp[0], Path: mp[1]}
	}
	return out, nil
}
