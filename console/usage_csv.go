package console

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// csvFlushRows is how many rows the export writes between flushes to the client.
const csvFlushRows = 500

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
		names[k.ID] = k.Name + " (" + k.Prefix + ")"
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

	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="usage-%d-%s-%s.csv"`, cons.ID, rg, metering.Day(since)))
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"day", "key", "operation", "calls", "units", "errors"})
	n := 0
	err = c.deps.Usage.EachDaily(ctx, consumerID, keyID, since, func(u metering.DailyUsage) error {
		name, ok := names[u.KeyID]
		if !ok {
			name = "key " + strconv.Itoa(u.KeyID)
		}
		if err := cw.Write([]string{u.Day, csvCell(name), csvCell(u.Operation), strconv.FormatInt(u.Calls, 10),
			strconv.FormatInt(u.Cost, 10), strconv.FormatInt(u.Errors, 10)}); err != nil {
			return err
		}
		if n++; n%csvFlushRows == 0 {
			cw.Flush()
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		return cw.Error()
	})
	if err != nil && n == 0 {
		// Nothing has reached the client yet (the writer buffers): answer with the error page.
		h.Del("Content-Disposition")
		c.fail(w, r, err)
		return
	}
	cw.Flush()
	if err == nil {
		err = cw.Error()
	}
	if err != nil {
		// The header is sent: the export ends short, and the failure is logged.
		c.log.Error("console usage export", "consumer", consumerID, "err", err)
	}
}

// csvCell keeps a spreadsheet from reading a cell as a formula: a text starting with =, +, -, @,
// a tab or a carriage return gets a leading apostrophe.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
