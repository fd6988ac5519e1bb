package console

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// usageDays is how much history the usage pages show.
const usageDays = 30

// recentCalls is how many raw calls the recent-calls log shows.
const recentCalls = 50

// usageView is everything a usage page shows: read from rollups, except the recent-calls log,
// which reads the newest raw calls through an index.
type usageView struct {
	Base      string // the page's path, for filter links
	Keys      []access.KeyInfo
	KeyNames  map[int]string
	KeyID     int    // 0: all keys
	RequestID string // recent-calls search
	Report    metering.Report
	Chart     chart
	Recent    []metering.RecentCall
}

// usageFor reads a consumer's usage for the page at base, filtered by the request's key and
// request-id parameters. A key id that is not the consumer's is no such page (404).
func (c *Console) usageFor(w http.ResponseWriter, r *http.Request, a access.Actor, consumerID int, base string) (usageView, bool) {
	ctx := r.Context()
	keys, err := c.deps.Access.ListKeys(ctx, a, consumerID)
	if err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	u := usageView{Base: base, Keys: keys, KeyNames: map[int]string{}, RequestID: r.URL.Query().Get("requestId")}
	for _, k := range keys {
		u.KeyNames[k.ID] = k.Name + " (" + k.Prefix + "…)"
	}
	if s := r.URL.Query().Get("key"); s != "" {
		id, err := strconv.Atoi(s)
		if _, mine := u.KeyNames[id]; err != nil || !mine {
			c.notFound(w, r)
			return usageView{}, false
		}
		u.KeyID = id
	}
	if u.Report, err = c.deps.Usage.Report(ctx, consumerID, u.KeyID, usageDays, c.now()); err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	u.Chart = newChart(u.Report.Days)
	if u.Recent, err = c.deps.Usage.Recent(ctx, consumerID, metering.RecentFilter{KeyID: u.KeyID, RequestID: u.RequestID}, recentCalls); err != nil {
		c.fail(w, r, err)
		return usageView{}, false
	}
	return u, true
}

// keyName names a key for the usage tables.
func (u usageView) keyName(id int) string {
	if n, ok := u.KeyNames[id]; ok {
		return n
	}
	return fmt.Sprintf("key %d", id)
}

// filterURL is the page's URL with a key filter (0: all keys).
func (u usageView) filterURL(keyID int) string {
	if keyID == 0 {
		return u.Base
	}
	return u.Base + "?key=" + strconv.Itoa(keyID)
}

func (c *Console) usage(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	if u, ok := c.usageFor(w, r, v.actor, v.ConsumerID, "/console/usage"); ok {
		c.render(w, r, http.StatusOK, usagePage(c.page(r, "Usage"), u))
	}
}
