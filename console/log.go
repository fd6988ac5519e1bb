package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/metering"
)

// The request log: every recorded call of the last 30 days, newest first, filtered and paged by
// cursor (metering.UsageStore.Log), a page per call, and the filtered log as CSV. Consumers see
// their own; operators any consumer's, under /console/operator/consumers/{id}/log.

// logPageSize is how many calls a page of the request log shows.
const logPageSize = 50

// logTimeLayouts are the times the filter form takes (datetime-local inputs, read as UTC).
var logTimeLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", time.DateOnly}

// logQuery is the request log's filter and position, as its URL carries them.
type logQuery struct {
	Filter        metering.LogFilter
	Before, After *metering.LogCursor
	// The values as typed, shown back in the form.
	From, To, Key, Operation, Status, Code, RequestID string
}

// parseLogQuery reads the request log's URL query. Each bad value is a problem for people, named
// after its field; the query is still filled with the good ones. ops are the operation ids a filter
// may name (empty: any of their spelling).
func parseLogQuery(v url.Values, ops []string) (logQuery, []string) {
	q := logQuery{
		From: strings.TrimSpace(v.Get("from")), To: strings.TrimSpace(v.Get("to")), Key: strings.TrimSpace(v.Get("key")),
		Operation: strings.TrimSpace(v.Get("op")), Status: strings.TrimSpace(v.Get("status")),
		Code: strings.TrimSpace(v.Get("code")), RequestID: strings.TrimSpace(v.Get("rid")),
	}
	var problems []string
	var ok bool
	if q.Filter.From, ok = parseLogTime(q.From); !ok {
		problems = append(problems, "From must be a date and time such as 2026-01-31T14:05 (UTC).")
	}
	if q.Filter.To, ok = parseLogTime(q.To); !ok {
		problems = append(problems, "To must be a date and time such as 2026-01-31T14:05 (UTC).")
	}
	if !q.Filter.From.IsZero() && !q.Filter.To.IsZero() && !q.Filter.From.Before(q.Filter.To) {
		problems = append(problems, "From must be earlier than To.")
	}
	if q.Key != "" {
		id, err := strconv.Atoi(q.Key)
		if err != nil || id <= 0 || strconv.Itoa(id) != q.Key {
			problems = append(problems, "Key must be one of the keys in the list.")
		} else {
			q.Filter.KeyID = id
		}
	}
	if q.Operation != "" {
		if !validName(q.Operation) || len(ops) > 0 && !slices.Contains(ops, q.Operation) {
			problems = append(problems, "Operation must be one of the API's operations.")
		} else {
			q.Filter.Operation = q.Operation
		}
	}
	if q.Status != "" {
		if !slices.Contains(metering.StatusGroups, q.Status) {
			problems = append(problems, "Status must be one of 2xx, 3xx, 4xx, 429 or 5xx.")
		} else {
			q.Filter.StatusGroup = q.Status
		}
	}
	if q.Code != "" {
		if !validName(q.Code) {
			problems = append(problems, "Error code must be a code such as not_found: lower-case letters and underscores.")
		} else {
			q.Filter.ErrorCode = q.Code
		}
	}
	if q.RequestID != "" {
		if p, ok := metering.NormalizeRequestIDPrefix(q.RequestID); ok {
			q.Filter.RequestIDPrefix = p
		} else {
			problems = append(problems, "Request id must be the start of a request id: req_ and up to 32 hex digits (0-9, a-f).")
		}
	}
	for _, c := range []struct {
		name string
		dst  **metering.LogCursor
	}{{"before", &q.Before}, {"after", &q.After}} {
		s := v.Get(c.name)
		if s == "" {
			continue
		}
		cur, err := metering.ParseLogCursor(s)
		if err != nil || q.Filter.RequestIDPrefix != "" && cur.RequestID == "" || q.Filter.RequestIDPrefix == "" && cur.RequestID != "" {
			problems = append(problems, "The page link is broken or from another search: start again from the newest calls.")
			continue
		}
		*c.dst = &cur
	}
	if q.Before != nil && q.After != nil {
		problems = append(problems, "A page link names either older or newer calls, not both.")
		q.Before, q.After = nil, nil
	}
	return q, problems
}

// parseLogTime reads a filter time as UTC; "" is no bound.
func parseLogTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, true
	}
	for _, l := range logTimeLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil && t.Year() >= 2000 && t.Year() < 10000 {
			return t, true
		}
	}
	return time.Time{}, false
}

// validName reports whether s is an operation id or error code: 1 to 64 letters, digits and underscores.
func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// values is the query's filter as URL parameters (no position): what links to other pages keep.
func (q logQuery) values() url.Values {
	v := url.Values{}
	for _, p := range []struct{ name, value string }{
		{"from", q.From}, {"to", q.To}, {"key", q.Key}, {"op", q.Operation}, {"status", q.Status}, {"code", q.Code}, {"rid", q.RequestID},
	} {
		if p.value != "" {
			v.Set(p.name, p.value)
		}
	}
	return v
}

// filtered reports whether any filter is set.
func (q logQuery) filtered() bool { return len(q.values()) > 0 }

// logView is a page of the request log, for a consumer or an operator.
type logView struct {
	Base      string // the log's path: /console/log or the operator's
	Consumer  *access.Consumer
	Keys      []access.KeyInfo
	keyNames  map[int]string
	Ops       []string
	Query     logQuery
	Problems  []string
	Page      metering.LogPage
	Retention string
}

// keyName names a key for people: its name and prefix.
func (v logView) keyName(id int) string {
	if n, ok := v.keyNames[id]; ok {
		return n
	}
	return "key " + strconv.Itoa(id)
}

// link is the log's URL with the query's filters and extra parameters.
func (v logView) link(path string, extra ...string) string {
	p := v.Query.values()
	for i := 0; i+1 < len(extra); i += 2 {
		p.Set(extra[i], extra[i+1])
	}
	if len(p) == 0 {
		return path
	}
	return path + "?" + p.Encode()
}

// callPath is the page of one call.
func (v logView) callPath(requestID string) string { return v.Base + "/" + url.PathEscape(requestID) }

// logTarget is whose log a request reads: the viewer's consumer, or the one an operator names.
type logTarget struct {
	ConsumerID int
	Consumer   *access.Consumer // operators only
	Base       string
}

// logRoutes serves the consumer's request log.
func (c *Console) logRoutes(r chi.Router) {
	r.Get("/log", c.logPage)
	r.Get("/log.csv", c.logCSV)
	r.Get("/log/{requestID}", c.logCall)
}

// opLogRoutes serves a consumer's request log to operators.
func (c *Console) opLogRoutes(r chi.Router) {
	r.Get("/consumers/{id}/log", c.logPage)
	r.Get("/consumers/{id}/log.csv", c.logCSV)
	r.Get("/consumers/{id}/log/{requestID}", c.logCall)
}

// logTargetOf is the log the request reads; false when it has answered (404 for an operator's
// unknown consumer).
func (c *Console) logTargetOf(w http.ResponseWriter, r *http.Request) (logTarget, bool) {
	v := viewerOf(r)
	if v.Role != roleOperator {
		return logTarget{ConsumerID: v.ConsumerID, Base: "/console/log"}, true
	}
	id, ok := c.pathID(w, r, "id")
	if !ok {
		return logTarget{}, false
	}
	cons, err := c.deps.Access.Consumer(r.Context(), v.actor, id)
	if err != nil {
		c.fail(w, r, err)
		return logTarget{}, false
	}
	return logTarget{ConsumerID: id, Consumer: &cons, Base: consumerPath(id) + "/log"}, true
}

// logViewFor reads the target's keys and the request's filter; problems with the filter are in
// the view, not answered.
func (c *Console) logViewFor(w http.ResponseWriter, r *http.Request, t logTarget) (logView, bool) {
	keys, err := c.deps.Access.ListKeys(r.Context(), viewerOf(r).actor, t.ConsumerID)
	if err != nil {
		c.fail(w, r, err)
		return logView{}, false
	}
	lv := logView{Base: t.Base, Consumer: t.Consumer, Keys: keys, keyNames: map[int]string{}, Ops: c.deps.Operations,
		Retention: strconv.Itoa(int(metering.UsageRetention/(24*time.Hour))) + " days"}
	for _, k := range keys {
		lv.keyNames[k.ID] = keyCaption(k)
	}
	lv.Query, lv.Problems = parseLogQuery(r.URL.Query(), c.deps.Operations)
	if id := lv.Query.Filter.KeyID; id != 0 {
		if _, mine := lv.keyNames[id]; !mine {
			lv.Problems = append(lv.Problems, "Key must be one of the keys in the list.")
		}
	}
	return lv, true
}

// logTitle is the title of a log page.
func logTitle(t logTarget, what string) string {
	if t.Consumer != nil {
		return what + " of " + t.Consumer.Name
	}
	return what
}

// filteredLog reads the log a request names and its filter; false when it has answered (a bad
// filter with the log page and its problems, 400).
func (c *Console) filteredLog(w http.ResponseWriter, r *http.Request) (logTarget, logView, bool) {
	t, ok := c.logTargetOf(w, r)
	if !ok {
		return logTarget{}, logView{}, false
	}
	lv, ok := c.logViewFor(w, r, t)
	if !ok {
		return logTarget{}, logView{}, false
	}
	if len(lv.Problems) > 0 {
		c.render(w, r, http.StatusBadRequest, logPage(c.page(r, logTitle(t, "Request log")), lv))
		return logTarget{}, logView{}, false
	}
	return t, lv, true
}

func (c *Console) logPage(w http.ResponseWriter, r *http.Request) {
	t, lv, ok := c.filteredLog(w, r)
	if !ok {
		return
	}
	page, err := c.deps.Usage.Log(r.Context(), t.ConsumerID, lv.Query.Filter, lv.Query.Before, lv.Query.After, logPageSize)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	lv.Page = page
	c.render(w, r, http.StatusOK, logPage(c.page(r, logTitle(t, "Request log")), lv))
}

// callView is one call's page.
type callView struct {
	Log  logView
	Call metering.LogCall
}

func (c *Console) logCall(w http.ResponseWriter, r *http.Request) {
	t, ok := c.logTargetOf(w, r)
	if !ok {
		return
	}
	rid := chi.URLParam(r, "requestID")
	if len(rid) > 64 {
		c.notFound(w, r)
		return
	}
	call, err := c.deps.Usage.LogCall(r.Context(), t.ConsumerID, rid)
	if errors.Is(err, metering.ErrCallNotFound) {
		c.notFound(w, r)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	lv, ok := c.logViewFor(w, r, t)
	if !ok {
		return
	}
	lv.Problems = nil // the detail page keeps the filter for its way back, and ignores it otherwise
	c.render(w, r, http.StatusOK, logCallPage(c.page(r, logTitle(t, "Call "+call.RequestID)), callView{Log: lv, Call: call}))
}

// logCSVHeader is the first row of the CSV export.
var logCSVHeader = []string{"time_utc", "request_id", "key_id", "key", "method", "path", "operation", "status", "status_group",
	"error_code", "latency_ms", "units", "chain", "source", "rate_remaining_at_admission", "replayed"}

func (c *Console) logCSV(w http.ResponseWriter, r *http.Request) {
	t, lv, ok := c.filteredLog(w, r)
	if !ok {
		return
	}
	filename := "request-log-" + strconv.Itoa(t.ConsumerID) + "-" + c.now().UTC().Format("20060102-1504") + ".csv"
	c.streamCSV(w, r, filename, logCSVHeader, func(row func(...string) error) error {
		return c.deps.Usage.ExportLog(r.Context(), t.ConsumerID, lv.Query.Filter, func(call metering.LogCall) error {
			rate := ""
			if call.RateRemaining != nil {
				rate = strconv.Itoa(*call.RateRemaining)
			}
			return row(call.At.UTC().Format("2006-01-02T15:04:05.000Z"), call.RequestID, strconv.Itoa(call.KeyID), csvCell(lv.keyName(call.KeyID)),
				call.Method, csvCell(call.Path), call.Operation, strconv.Itoa(call.Status), call.StatusGroup, call.ErrorCode,
				strconv.FormatFloat(float64(call.LatencyUs)/1000, 'f', 3, 64), strconv.Itoa(call.Cost), call.Chain, call.Source, rate,
				strconv.FormatBool(call.Replayed))
		})
	})
}

// statusLabel is a status with its reason phrase: "404 Not Found".
func statusLabel(status int) string {
	text := http.StatusText(status)
	if status == 499 {
		text = "Client Closed Request"
	}
	if text == "" {
		return strconv.Itoa(status)
	}
	return strconv.Itoa(status) + " " + text
}

// groupLabel says what a status group means.
func groupLabel(g string) string {
	switch g {
	case metering.Group2xx:
		return "2xx success"
	case metering.Group3xx:
		return "3xx redirect"
	case metering.Group4xx:
		return "4xx client error (not 429)"
	case metering.Group429:
		return "429 rate limited"
	case metering.Group5xx:
		return "5xx server error"
	}
	return g
}

// prettyJSON indents a JSON body for reading; anything else is shown as it is.
func prettyJSON(b []byte) string {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return string(b)
	}
	return out.String()
}
