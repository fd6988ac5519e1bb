package console

import "github.com/go-chi/chi/v5"

// accountRoutes serves every signed-in user's own account: password, two-factor sign-in, sessions.
func (c *Console) accountRoutes(r chi.Router) {}
