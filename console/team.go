package console

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// Team roles of a consumer's users.
const (
	teamOwner     = "owner"
	teamDeveloper = "developer"
	teamViewer    = "viewer"
)

// requireTeam lets through consumer users whose team role is at least role.
func (c *Console) requireTeam(role string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler { return next }
}

// teamRoutes serves the consumer's team page to its owners.
func (c *Console) teamRoutes(r chi.Router) {}

// opTeamRoutes serves a consumer's team to operators.
func (c *Console) opTeamRoutes(r chi.Router) {}
