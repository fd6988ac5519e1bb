package console

import "github.com/go-chi/chi/v5"

// logRoutes serves the consumer's request log.
func (c *Console) logRoutes(r chi.Router) {}

// opLogRoutes serves a consumer's request log to operators.
func (c *Console) opLogRoutes(r chi.Router) {}
