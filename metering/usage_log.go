package metering

import (
	"context"
	stdsql "database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/partner-platform/partnerd/ent/usagerecord"
)

// The request log: a consumer's raw calls, newest first, paged by a cursor over (at, id) and
// filtered by time, key, operation, status group, error code or request-id prefix. Each filter
// alone is served by its own index, (consumer_id, <filter>, at), read backwards from the cursor, so
// a page costs the same on the first day and with ten million calls: no OFFSET, no sort.
//
// A request-id prefix search reads the (consumer_id, request_id) index instead and orders by request
// id: request ids begin with their millisecond (see api.newRequestID), so that order is newest first
// too, and a short prefix matching millions of calls still needs no sort.

// LogFilter narrows the request log; zero fields match every call.
type LogFilter struct {
	From, To        time.Time // calls at or after From, before To
	KeyID           int
	Operation       string
	StatusGroup     string // one of StatusGroups
	ErrorCode       string
	RequestIDPrefix string // "req_" and hex digits; see NormalizeRequestIDPrefix
}

// bySearch reports whether the log is read in request-id order (a prefix search).
func (f LogFilter) bySearch() bool { return f.RequestIDPrefix != "" }

// LogCursor is a position in the request log: a call's time and id, or, in a request-id prefix
// search, its request id and id. Pages hand it out opaque (String, ParseLogCursor).
type LogCursor struct {
	At        time.Time
	RequestID string // set in a prefix search instead of At
	ID        int
}

// String is the cursor as an opaque token for URLs.
func (c LogCursor) String() string {
	var s string
	if c.RequestID != "" {
		s = "r" + c.RequestID + "." + strconv.Itoa(c.ID)
	} else {
		s = "t" + strconv.FormatInt(c.At.UnixNano(), 36) + "." + strconv.Itoa(c.ID)
	}
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// ErrBadCursor is ParseLogCursor's answer to a token it did not hand out.
var ErrBadCursor = errors.New("metering: not a request log cursor")

// ParseLogCursor reads a token made by LogCursor.String.
func ParseLogCursor(token string) (LogCursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) < 3 {
		return LogCursor{}, ErrBadCursor
	}
	s := string(raw)
	dot := strings.LastIndexByte(s, '.')
	if dot < 1 {
		return LogCursor{}, ErrBadCursor
	}
	id, err := strconv.Atoi(s[dot+1:])
	if err != nil || id <= 0 || strconv.Itoa(id) != s[dot+1:] {
		return LogCursor{}, ErrBadCursor
	}
	body := s[1:dot]
	switch s[0] {
	case 't':
		ns, err := strconv.ParseInt(body, 36, 64)
		if err != nil || strconv.FormatInt(ns, 36) != body {
			return LogCursor{}, ErrBadCursor
		}
		return LogCursor{At: time.Unix(0, ns).UTC(), ID: id}, nil
	case 'r':
		if body == "" || len(body) > 64 || !printableASCII(body) {
			return LogCursor{}, ErrBadCursor
		}
		return LogCursor{RequestID: body, ID: id}, nil
	}
	return LogCursor{}, ErrBadCursor
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// requestIDHead is how every request id begins (api.newRequestID): "req_" and 32 hex digits.
const requestIDHead = "req_"

// NormalizeRequestIDPrefix reads what someone typed to find calls by request id: "req_" and up to 32
// hex digits, or the hex digits alone, in any case. It returns the prefix to search for, "req_"
// and the digits in lower case, or false when q cannot begin a request id.
func NormalizeRequestIDPrefix(q string) (string, bool) {
	q = strings.ToLower(strings.TrimSpace(q))
	hex := strings.TrimPrefix(q, requestIDHead)
	if hex == "" || len(hex) > 32 {
		return "", false
	}
	for i := 0; i < len(hex); i++ {
		if !isHex(hex[i]) {
			return "", false
		}
	}
	return requestIDHead + hex, true
}

func isHex(b byte) bool { return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' }

// prefixEnd is the least string above every request id that begins with prefix ("req_" and hex
// digits): its last digit counted up (9 to a, f to g), so the range compares letters and digits only,
// whatever the collation.
func prefixEnd(prefix string) string {
	last := prefix[len(prefix)-1]
	switch last {
	case '9':
		last = 'a'
	default:
		last++
	}
	return prefix[:len(prefix)-1] + string(last)
}

// LogCall is one call of the request log.
type LogCall struct {
	ID          int
	At          time.Time
	KeyID       int
	Operation   string
	Method      string
	Path        string
	Status      int
	StatusGroup string
	ErrorCode   string
	Cost        int // rate-limit units charged
	LatencyUs   int64
	Chain       string
	RequestID   string
	Source      string
	// RateRemaining is the units left in the consumer's bucket at admission; nil when the call
	// ended before the limiter (a refused key scope or source) or was recorded before it was kept.
	RateRemaining *int
	Replayed      bool
	ErrorBody     []byte // only from LogCall (a single call's detail)
}

// Cursor is the call's position in a log read with f.
func (c LogCall) Cursor(f LogFilter) LogCursor {
	if f.bySearch() {
		return LogCursor{RequestID: c.RequestID, ID: c.ID}
	}
	return LogCursor{At: c.At, ID: c.ID}
}

// LogPage is one page of the request log, newest first.
type LogPage struct {
	Calls []LogCall
	// Older continues with the next older page; Newer with the page before this one. Nil: the log
	// has nothing on that side (Newer is set whenever the page was read from a cursor).
	Older, Newer *LogCursor
}

// MaxLogPage bounds a page of the request log.
const MaxLogPage = 500

// logColumns are the columns a log page reads (not the error body: a page has no use for it).
const logColumns = `"id", "at", "key_id", "operation", "method", "path", "status", "status_group", "error_code", "cost", ` +
	`"latency_us", "chain", "request_id", "source", "rate_remaining", "replayed"`

// logQuery is the SQL of one read of the log: the consumer's calls matching f, beyond the cursor in
// the given direction (older: descending), at most limit rows.
func (s *UsageStore) logQuery(consumerID int, f LogFilter, cur *LogCursor, older bool, limit int) (string, []any) {
	var q strings.Builder
	args := []any{consumerID}
	arg := func(v any) string {
		args = append(args, v)
		return s.param(len(args))
	}
	q.WriteString(`SELECT ` + logColumns + ` FROM "` + usagerecord.Table + `" WHERE "consumer_id" = ` + s.param(1))
	// Equality filters first, so the planner sees the index (consumer_id, <filter>, at).
	if f.KeyID != 0 {
		q.WriteString(` AND "key_id" = ` + arg(f.KeyID))
	}
	if f.Operation != "" {
		q.WriteString(` AND "operation" = ` + arg(f.Operation))
	}
	if f.StatusGroup != "" {
		q.WriteString(` AND "status_group" = ` + arg(f.StatusGroup))
	}
	if f.ErrorCode != "" {
		q.WriteString(` AND "error_code" = ` + arg(f.ErrorCode))
	}
	order := `"at"`
	if f.bySearch() {
		order = `"request_id"`
		q.WriteString(` AND "request_id" >= ` + arg(f.RequestIDPrefix) + ` AND "request_id" < ` + arg(prefixEnd(f.RequestIDPrefix)))
	}
	if !f.From.IsZero() {
		q.WriteString(` AND "at" >= ` + arg(f.From.UTC()))
	}
	if !f.To.IsZero() {
		q.WriteString(` AND "at" < ` + arg(f.To.UTC()))
	}
	if cur != nil {
		var pos any = cur.At.UTC()
		if f.bySearch() {
			pos = cur.RequestID
		}
		// (order, id) beyond the cursor, spelled so that the index range stops at the cursor.
		cmp, cmpEq := "<", "<="
		if !older {
			cmp, cmpEq = ">", ">="
		}
		p := arg(pos)
		q.WriteString(` AND ` + order + ` ` + cmpEq + ` ` + p + ` AND (` + order + ` ` + cmp + ` ` + arg(pos) + ` OR "id" ` + cmp + ` ` + arg(cur.ID) + `)`)
	}
	dir := " DESC"
	if !older {
		dir = " ASC"
	}
	q.WriteString(` ORDER BY ` + order + dir + `, "id"` + dir + ` LIMIT ` + strconv.Itoa(limit))
	return q.String(), args
}

// Log returns a page of the consumer's request log matching f, newest first: the newest calls
// (before and after both nil), the calls older than before, or those newer than after.
func (s *UsageStore) Log(ctx context.Context, consumerID int, f LogFilter, before, after *LogCursor, limit int) (LogPage, error) {
	limit = max(1, min(limit, MaxLogPage))
	older := after == nil
	cur := before
	if !older {
		cur = after
	}
	if cur != nil && f.bySearch() != (cur.RequestID != "") {
		return LogPage{}, ErrBadCursor // a cursor from a differently ordered log
	}
	q, args := s.logQuery(consumerID, f, cur, older, limit+1)
	calls, err := s.readLog(ctx, q, args, limit+1)
	if err != nil {
		return LogPage{}, fmt.Errorf("read request log: %w", err)
	}
	more := len(calls) > limit
	calls = calls[:min(len(calls), limit)]
	if !older {
		slices.Reverse(calls)
	}
	p := LogPage{Calls: calls}
	if len(calls) == 0 {
		return p, nil
	}
	first, last := calls[0].Cursor(f), calls[len(calls)-1].Cursor(f)
	switch {
	case older:
		if more {
			p.Older = &last
		}
		if cur != nil {
			p.Newer = &first
		}
	default:
		if more {
			p.Newer = &first
		}
		p.Older = &last
	}
	return p, nil
}

func (s *UsageStore) readLog(ctx context.Context, q string, args []any, capacity int) ([]LogCall, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]LogCall, 0, capacity)
	for rows.Next() {
		var c LogCall
		var rate stdsql.NullInt64
		if err := rows.Scan(&c.ID, &c.At, &c.KeyID, &c.Operation, &c.Method, &c.Path, &c.Status, &c.StatusGroup, &c.ErrorCode,
			&c.Cost, &c.LatencyUs, &c.Chain, &c.RequestID, &c.Source, &rate, &c.Replayed); err != nil {
			return nil, err
		}
		if rate.Valid {
			n := int(rate.Int64)
			c.RateRemaining = &n
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ErrCallNotFound is LogCall's answer for a request id the consumer has no call under.
var ErrCallNotFound = errors.New("metering: no such call")

// LogCall returns the consumer's call with the request id, with its error body: another consumer's
// call is not found (ErrCallNotFound), like an id never answered.
func (s *UsageStore) LogCall(ctx context.Context, consumerID int, requestID string) (LogCall, error) {
	q := `SELECT ` + logColumns + `, "error_body" FROM "` + usagerecord.Table + `" WHERE "consumer_id" = ` + s.param(1) +
		` AND "request_id" = ` + s.param(2) + ` ORDER BY "id" LIMIT 1`
	var c LogCall
	var rate stdsql.NullInt64
	rows, err := s.db.QueryContext(ctx, q, consumerID, requestID)
	if err != nil {
		return LogCall{}, fmt.Errorf("read call %s: %w", requestID, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return LogCall{}, fmt.Errorf("read call %s: %w", requestID, err)
		}
		return LogCall{}, ErrCallNotFound
	}
	if err := rows.Scan(&c.ID, &c.At, &c.KeyID, &c.Operation, &c.Method, &c.Path, &c.Status, &c.StatusGroup, &c.ErrorCode,
		&c.Cost, &c.LatencyUs, &c.Chain, &c.RequestID, &c.Source, &rate, &c.Replayed, &c.ErrorBody); err != nil {
		return LogCall{}, fmt.Errorf("read call %s: %w", requestID, err)
	}
	if rate.Valid {
		n := int(rate.Int64)
		c.RateRemaining = &n
	}
	return c, nil
}

// exportPage is how many calls ExportLog reads at a time.
const exportPage = 1_000

// ExportLog calls fn with every call of the consumer's log matching f, newest first, reading a page
// at a time: memory stays constant however long the log. It stops at fn's first error and returns it.
func (s *UsageStore) ExportLog(ctx context.Context, consumerID int, f LogFilter, fn func(LogCall) error) error {
	var cur *LogCursor
	for {
		q, args := s.logQuery(consumerID, f, cur, true, exportPage)
		calls, err := s.readLog(ctx, q, args, exportPage)
		if err != nil {
			return fmt.Errorf("export request log: %w", err)
		}
		for _, c := range calls {
			if err := fn(c); err != nil {
				return err
			}
		}
		if len(calls) < exportPage {
			return nil
		}
		last := calls[len(calls)-1].Cursor(f)
		cur = &last
	}
}

// Column bounds of the request log's detail (ent/schema/usagerecord.go).
const (
	maxMethod    = 8
	maxPath      = 512
	maxErrorCode = 64
	maxSource    = 64
)

// appendLogArgs appends the request log's columns of c, after the call's own (rawColumns), clipped
// to their columns' sizes.
func appendLogArgs(a []any, c *Call) []any {
	var rate, body any // NULL unless known
	if c.RateRemaining != nil {
		rate = int64(*c.RateRemaining)
	}
	if len(c.ErrorBody) > 0 {
		body = c.ErrorBody[:min(len(c.ErrorBody), MaxErrorBody)]
	}
	source := ""
	if c.Source.IsValid() {
		source = c.Source.String()
	}
	return append(a, boxed(clip(c.Method, maxMethod)), clip(c.Path, maxPath), boxed(StatusGroup(c.Status)),
		boxed(clip(c.ErrorCode, maxErrorCode)), clip(source, maxSource), rate, c.Replayed, body)
}

// boxedStrings are the common short values of the log's columns as interface values made once:
// boxing a string allocates, and the writer stores every call.
var boxedStrings = func() map[string]any {
	m := map[string]any{"": ""}
	for _, s := range append([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}, StatusGroups...) {
		m[s] = s
	}
	return m
}()

// boxed is s as an interface value, without allocating for the common ones.
func boxed(s string) any {
	if b, ok := boxedStrings[s]; ok {
		return b
	}
	return s
}

// clip cuts s to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
