package console

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// usageCSV streams the consumer's daily usage as CSV.
func (c *Console) usageCSV(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	c.writeUsageCSV(w, r, v.actor, v.ConsumerID)
}

// opUsageCSV streams a consumer's daily usage as CSV for operators.
func (c *Console) opUsageCSV(w http.ResponseWriter, r *http.Request) {
	v := viewerOf(r)
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return
	}
	c.writeUsageCSV(w, r, v.actor, id)
}

// writeUsageCSV streams the daily usage rollups of the last 7 or 30 UTC days (range=7d or 30d, 30 by
// default), of all keys or one (key=id, 404 when not the consumer's): one row per day, key and
// operation with its calls, units and errors, written as the rows are read.
func (c *Console) writeUsageCSV(w http.ResponseWriter, r *http.Request, a access.Actor, consumerID int) {
	ctx := r.Context()
	q := r.URL.Query()
	rg := metering.Range(q.Get("range"))
	if rg == "" {
		rg = metering.Range30d
	}
	if rg.Days() == 0 {
		c.render(w, r, http.StatusBadRequest, errorPage(c.page(r, "Unknown range"),
			"The daily usage export covers the last 7 or 30 days (range=7d or 30d)."))
		return
	}
	cons, err := c.deps.Access.Consumer(ctx, a, consumerID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	keys, err := c.deps.Access.ListKeys(ctx, a, consumerID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	names := map[int]string{}
	for _, k := range keys {
		names[k.ID] = keyCaption(k)
	}
	keyID := 0
	if s := q.Get("key"); s != "" {
		id, err := strconv.Atoi(s)
		if _, mine := names[id]; err != nil || !mine {
			c.notFound(w, r)
			return
		}
		keyID = id
	}
	y, m, d := c.now().UTC().Date()
	since := time.Date(y, m, d-(rg.Days()-1), 0, 0, 0, 0, time.UTC)

	filename := fmt.Sprintf("usage-%d-%s-%s.csv", cons.ID, rg, metering.Day(since))
	c.streamCSV(w, r, filename, []string{"day", "key", "operation", "calls", "units", "errors"}, func(row func(...string) error) error {
		return c.deps.Usage.EachDaily(ctx, consumerID, keyID, since, func(u metering.DailyUsage) error {
			name, ok := names[u.KeyID]
			if !ok {
				name = "key " + strconv.Itoa(u.KeyID)
			}
			return row(u.Day, csvCell(name), csvCell(u.Operation), strconv.FormatInt(u.Calls, 10),
				strconv.FormatInt(u.Cost, 10), strconv.FormatInt(u.Errors, 10))
		})
	})
}
