package console

import (
	"testing"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// BenchmarkSessionCommit measures the store's commit of a signed-in session, which runs on every
// console request (scs renews the idle timeout): decoding the data for the sessions list's
// columns and the conditional update.
func BenchmarkSessionCommit(b *testing.B) {
	for _, be := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.SQLite}, {"postgres", storetest.Postgres}} {
		b.Run(be.name, func(b *testing.B) {
			st := be.open(b)
			s := &sessionStore{db: st.Client, now: time.Now}
			data, err := (scs.GobCodec{}).Encode(time.Now().Add(time.Hour), map[string]any{
				userKey: 7, stampKey: "stamp", agentKey: "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/156", ipKey: "127.0.0.1"})
			if err != nil {
				b.Fatal(err)
			}
			ctx := b.Context()
			if err := s.CommitCtx(ctx, "token", data, time.Now().Add(time.Hour)); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for b.Loop() {
				if err := s.CommitCtx(ctx, "token", data, time.Now().Add(time.Hour)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
