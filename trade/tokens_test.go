package trade

import (
	"errors"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// TestTokenStoreOutage: with the store gone, keeping, finding and confirming a confirmation token
// fail with ErrStore and with the store's own error, which says it is an outage (so the API
// answers 503 unavailable, not internal_error).
func TestTokenStoreOutage(t *testing.T) {
	st := storetest.SQLite(t)
	tokens := &tokenStore{db: st.Client}
	var b Build
	if err := tokens.issue(1, "base", &b, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	_, findErr := tokens.find(t.Context(), 1, b.ConfirmationToken, time.Now())
	_, confirmErr := tokens.confirm(t.Context(), 1, time.Now())
	for what, err := range map[string]error{"keep": b.Keep(t.Context(), st.Client), "find": findErr, "confirm": confirmErr} {
		if !errors.Is(err, ErrStore) || !store.Unavailable(err) {
			t.Errorf("%s with the store closed: %v; want ErrStore and an outage (store.Unavailable)", what, err)
		}
	}
}
