package metering

import (
	"cmp"
	"context"
	stdsql "database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/partner-platform/partnerd/ent/usagepage"
)

// How the request log reads pages (usage_log.go): it asks the store for the pages whose summaries
// may hold matching calls, a few at a time, in the order of the read: newest first by their latest
// call, or oldest first by their earliest (by request id instead in a request-id search). It
// decodes each, keeps the calls that match, and hands a call on once no page still to come can hold
// one that goes before it: the next page's latest (or earliest) bound is past it. So a read costs
// the pages it returns and those that overlap them, however long the log.

// pageIndexBits is how many low bits of a call's id (LogCall.ID) are its place in its page: the
// rest is the page's id, so ids are unique, stable and ordered as pages were written.
const pageIndexBits = 13

func init() {
	if MaxPageCalls > 1<<pageIndexBits {
		panic("metering: MaxPageCalls does not fit in pageIndexBits")
	}
}

// logRead is one read of the request log.
type logRead struct {
	consumerID int
	f          LogFilter
	requestID  string     // only the calls with this request id; "" every one
	cur        *LogCursor // only the calls beyond it in the read's order
	older      bool       // newest first (true) or oldest first
	withBody   bool       // fill LogCall.ErrorBody
	chunk      int        // pages asked of the store at once
	// snapshot reads every chunk in one read-only transaction, so a long read sees the pages as
	// they were when it began, whatever compaction and retention do meanwhile.
	snapshot bool
}

// byRequestID reports whether the read goes in request-id order: a prefix search, or a lookup of
// one id, whose pages the request-id index finds.
func (r *logRead) byRequestID() bool { return r.f.bySearch() || r.requestID != "" }

// heldCall is a decoded call waiting to be handed on, with its id (LogCall.ID).
type heldCall struct {
	c  *Call
	id int
}

// compare orders a and b as the read hands them on: negative when a comes first.
func (r *logRead) compare(a, b heldCall) int {
	var c int
	if r.byRequestID() {
		c = cmp.Or(strings.Compare(a.c.RequestID, b.c.RequestID), cmp.Compare(a.id, b.id))
	} else {
		c = cmp.Or(a.c.At.Compare(b.c.At), cmp.Compare(a.id, b.id))
	}
	if r.older {
		return -c
	}
	return c
}

// beyondCursor reports whether h comes after cur, the read's cursor as a call (nil: no cursor).
func (r *logRead) beyondCursor(cur *heldCall, h heldCall) bool {
	return cur == nil || r.compare(*cur, h) < 0
}

// matchesFields reports whether c matches the read's filter but for its request id, which
// decodePage makes only for the calls this keeps.
func (r *logRead) matchesFields(c *Call) bool {
	f := &r.f
	switch {
	case !f.From.IsZero() && c.At.Before(f.From),
		!f.To.IsZero() && !c.At.Before(f.To),
		f.KeyID != 0 && c.KeyID != f.KeyID,
		f.Operation != "" && c.Operation != f.Operation,
		f.StatusGroup != "" && StatusGroup(c.Status) != f.StatusGroup,
		f.ErrorCode != "" && c.ErrorCode != f.ErrorCode:
		return false
	}
	return true
}

// keepsMost reports whether the read keeps most calls of the pages it decodes: it filters by no
// field of a call but its time, which only the pages at the ends of its range hold calls beyond.
func (r *logRead) keepsMost() bool {
	f := &r.f
	return f.KeyID == 0 && f.Operation == "" && f.StatusGroup == "" && f.ErrorCode == "" && f.RequestIDPrefix == "" &&
		r.requestID == ""
}

// matchesRequestID reports whether c's request id matches the read.
func (r *logRead) matchesRequestID(c *Call) bool {
	return strings.HasPrefix(c.RequestID, r.f.RequestIDPrefix) && (r.requestID == "" || c.RequestID == r.requestID)
}

// storedPage is a page read from the store: its id, the bounds of its calls and its bytes.
type storedPage struct {
	id                            int
	firstAt, lastAt               time.Time
	firstRequestID, lastRequestID string
	data                          []byte
}

// mayPrecede reports whether p may hold a call that comes before h (or ties with it) in the read's
// order: while it may, h waits.
func (r *logRead) mayPrecede(p *storedPage, h heldCall) bool {
	switch {
	case r.byRequestID() && r.older:
		return p.lastRequestID >= h.c.RequestID
	case r.byRequestID():
		return p.firstRequestID <= h.c.RequestID
	case r.older:
		return !p.lastAt.Before(h.c.At)
	default:
		return !p.firstAt.After(h.c.At)
	}
}

// pageQuery is the SQL that reads the next chunk of the read's pages after the page last (nil:
// from the start), in the read's order.
func (s *UsageStore) pageQuery(r *logRead, last *storedPage) (string, []any) {
	var q strings.Builder
	args := []any{r.consumerID}
	arg := func(v any) string {
		args = append(args, v)
		return s.param(len(args))
	}
	f := &r.f
	q.WriteString(`SELECT "id", "first_at", "last_at", "first_request_id", "last_request_id", "data" FROM "` + usagepage.Table + `"`)
	if s.dialect == dialect.SQLite {
		// Without statistics SQLite may take the index of the other end of the range, which then
		// needs a sort; the read's order is what bounds its work.
		q.WriteString(` INDEXED BY "` + r.orderIndex() + `"`)
	}
	q.WriteString(` WHERE "consumer_id" = ` + s.param(1))
	if f.KeyID != 0 {
		q.WriteString(` AND ` + s.contains("key_ids", arg(setMember(strconv.Itoa(f.KeyID)))))
	}
	if f.Operation != "" {
		q.WriteString(` AND ` + s.contains("operations", arg(setMember(f.Operation))))
	}
	if f.ErrorCode != "" {
		q.WriteString(` AND ` + s.contains("error_codes", arg(setMember(f.ErrorCode))))
	}
	if f.StatusGroup != "" {
		if !slices.Contains(StatusGroups, f.StatusGroup) {
			q.WriteString(` AND 1 = 0`)
		} else {
			q.WriteString(` AND "calls_` + f.StatusGroup + `" > 0`)
		}
	}
	if !f.From.IsZero() {
		q.WriteString(` AND "last_at" >= ` + arg(f.From.UTC()))
	}
	if !f.To.IsZero() {
		q.WriteString(` AND "first_at" < ` + arg(f.To.UTC()))
	}
	if f.bySearch() {
		q.WriteString(` AND "last_request_id" >= ` + arg(f.RequestIDPrefix) + ` AND "first_request_id" < ` + arg(prefixEnd(f.RequestIDPrefix)))
	}
	if r.requestID != "" {
		q.WriteString(` AND "last_request_id" >= ` + arg(r.requestID) + ` AND "first_request_id" <= ` + arg(r.requestID))
	}
	// The order: by the pages' bound on the read's side, then their ids.
	lo, hi := `"first_at"`, `"last_at"`
	var curPos any
	if r.cur != nil {
		curPos = r.cur.At.UTC()
	}
	if r.byRequestID() {
		lo, hi = `"first_request_id"`, `"last_request_id"`
		if r.cur != nil {
			curPos = r.cur.RequestID
		}
	}
	order, dir, cmpOp := hi, " DESC", "<"
	if !r.older {
		order, dir, cmpOp = lo, " ASC", ">"
	}
	if r.cur != nil { // pages holding calls at or beyond the cursor's place
		if r.older {
			q.WriteString(` AND ` + lo + ` <= ` + arg(curPos))
			if !r.byRequestID() { // a page's calls are of one hour (pagesOf): where the index starts
				q.WriteString(` AND "last_at" < ` + arg(Hour(r.cur.At).Add(time.Hour)))
			}
		} else {
			q.WriteString(` AND ` + hi + ` >= ` + arg(curPos))
			if !r.byRequestID() {
				q.WriteString(` AND "first_at" >= ` + arg(Hour(r.cur.At)))
			}
		}
	}
	if last != nil {
		var pos any = last.lastAt
		switch {
		case r.byRequestID() && r.older:
			pos = last.lastRequestID
		case r.byRequestID():
			pos = last.firstRequestID
		case !r.older:
			pos = last.firstAt
		}
		// The first test bounds the index range where the scan starts (the second alone is a filter:
		// each chunk would walk again every page before it); the second takes the pages after last.
		q.WriteString(` AND ` + order + ` ` + cmpOp + `= ` + arg(pos) + ` AND (` + order + ` ` + cmpOp + ` ` + arg(pos) +
			` OR (` + order + ` = ` + arg(pos) + ` AND "id" ` + cmpOp + ` ` + arg(last.id) + `))`)
	}
	q.WriteString(` ORDER BY ` + order + dir + `, "id"` + dir + ` LIMIT ` + strconv.Itoa(r.chunk))
	return q.String(), args
}

// orderIndex is the index whose order the read's pages come in (ent/schema/usagepage.go).
func (r *logRead) orderIndex() string {
	switch {
	case r.byRequestID() && r.older:
		return "usagepage_consumer_id_last_request_id_id_first_request_id"
	case r.byRequestID():
		return "usagepage_consumer_id_first_request_id_id_last_request_id"
	case r.older:
		return "usagepage_consumer_id_last_at_id_first_at"
	}
	return "usagepage_consumer_id_first_at_id_last_at"
}

// contains is the SQL test that the set column col holds the member bound as param.
func (s *UsageStore) contains(col, param string) string {
	if s.dialect == dialect.Postgres {
		return `strpos("` + col + `", ` + param + `) > 0`
	}
	return `instr("` + col + `", ` + param + `) > 0`
}

// pageCursor reads a read's pages a chunk at a time.
type pageCursor struct {
	s       *UsageStore
	r       *logRead
	query   func(ctx context.Context, query string, args ...any) (*stdsql.Rows, error)
	pages   []storedPage
	last    *storedPage
	drained bool
}

// peek returns the next page without taking it; nil when there is none.
func (pc *pageCursor) peek(ctx context.Context) (*storedPage, error) {
	if len(pc.pages) == 0 && !pc.drained {
		if err := pc.fill(ctx); err != nil {
			return nil, err
		}
	}
	if len(pc.pages) == 0 {
		return nil, nil
	}
	return &pc.pages[0], nil
}

func (pc *pageCursor) fill(ctx context.Context) error {
	q, args := pc.s.pageQuery(pc.r, pc.last)
	rows, err := pc.query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p storedPage
		if err := rows.Scan(&p.id, &p.firstAt, &p.lastAt, &p.firstRequestID, &p.lastRequestID, &p.data); err != nil {
			return err
		}
		pc.pages = append(pc.pages, p)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	pc.drained = len(pc.pages) < pc.r.chunk
	if len(pc.pages) > 0 {
		last := pc.pages[len(pc.pages)-1]
		pc.last = &last
	}
	return nil
}

// eachCall calls fn with the read's calls in its order until fn returns false or none is left.
func (s *UsageStore) eachCall(ctx context.Context, r *logRead, fn func(LogCall) bool) error {
	pc := &pageCursor{s: s, r: r, query: s.db.QueryContext}
	if r.snapshot {
		opts := &stdsql.TxOptions{ReadOnly: true}
		if s.dialect == dialect.Postgres {
			opts.Isolation = stdsql.LevelRepeatableRead // SQLite's read transactions are snapshots already (WAL)
		}
		tx, err := s.db.BeginTx(ctx, opts)
		if err != nil {
			return err
		}
		defer tx.Rollback() // read only: nothing to commit
		pc.query = tx.QueryContext
	}
	var cur *heldCall
	if r.cur != nil {
		cur = &heldCall{c: &Call{At: r.cur.At, RequestID: r.cur.RequestID}, id: r.cur.ID}
	}
	var held []heldCall // decoded, matching and not yet handed on, in the read's order
	for {
		p, err := pc.peek(ctx)
		if err != nil {
			return err
		}
		if p == nil {
			break
		}
		page := *p
		pc.pages = pc.pages[1:]
		calls, places, err := decodePage(page.data, pageFilter{keep: r.matchesFields, requestID: r.requestID, most: r.keepsMost()})
		if err != nil {
			return fmt.Errorf("usage page %d: %w", page.id, err)
		}
		for i := range calls {
			h := heldCall{c: &calls[i], id: page.id<<pageIndexBits | int(places[i])}
			if r.matchesRequestID(h.c) && r.beyondCursor(cur, h) {
				held = append(held, h)
			}
		}
		slices.SortFunc(held, r.compare)
		next, err := pc.peek(ctx)
		if err != nil {
			return err
		}
		n := 0
		for n < len(held) && (next == nil || !r.mayPrecede(next, held[n])) {
			if !fn(logCallOf(held[n], r.withBody)) {
				return nil
			}
			n++
		}
		held = held[n:]
	}
	for _, h := range held {
		if !fn(logCallOf(h, r.withBody)) {
			return nil
		}
	}
	return nil
}

// logCallOf is a decoded call as the request log shows it.
func logCallOf(h heldCall, withBody bool) LogCall {
	c := h.c
	lc := LogCall{ID: h.id, At: c.At, KeyID: c.KeyID, Operation: c.Operation, Method: c.Method, Path: c.Path,
		Status: c.Status, StatusGroup: StatusGroup(c.Status), ErrorCode: c.ErrorCode, Cost: c.Cost,
		LatencyUs: c.Latency.Microseconds(), Chain: c.Chain, RequestID: c.RequestID,
		RateRemaining: c.RateRemaining, Replayed: c.Replayed}
	if c.Source.IsValid() {
		lc.Source = c.Source.String()
	}
	if withBody {
		lc.ErrorBody = c.ErrorBody
	}
	return lc
}
