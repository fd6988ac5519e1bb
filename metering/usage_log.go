package metering

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The request log: a consumer's raw calls, newest first, paged by a cursor over (at, id) and
// filtered by time, key, operation, status group, error code or request-id prefix. Calls are kept
// in pages (usage_page.go); usage_log_pages.go reads them in order. A request-id prefix search
// orders by request id: request ids begin with their millisecond (see api.newRequestID), so that
// order is newest first too.

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
	// ID is the call's place in the store: its page's id and its position there (pageIndexBits),
	// the cursor's tie-break between calls of one time. A compaction changes it.
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
	calls := make([]LogCall, 0, limit+1)
	err := s.eachCall(ctx, &logRead{consumerID: consumerID, f: f, cur: cur, older: older, chunk: 4}, func(c LogCall) bool {
		calls = append(calls, c)
		return len(calls) <= limit
	})
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

// ErrCallNotFound is LogCall's answer for a request id the consumer has no call under.
var ErrCallNotFound = errors.New("metering: no such call")

// LogCall returns the consumer's call with the request id, with its error body: another consumer's
// call is not found (ErrCallNotFound), like an id never answered. Should two calls share the id,
// the one written first is returned.
func (s *UsageStore) LogCall(ctx context.Context, consumerID int, requestID string) (LogCall, error) {
	var found *LogCall
	r := &logRead{consumerID: consumerID, requestID: requestID, older: true, withBody: true, chunk: 4}
	err := s.eachCall(ctx, r, func(c LogCall) bool {
		if found == nil || c.ID < found.ID {
			found = &c
		}
		return true
	})
	if err != nil {
		return LogCall{}, fmt.Errorf("read call %s: %w", requestID, err)
	}
	if found == nil {
		return LogCall{}, ErrCallNotFound
	}
	return *found, nil
}

// ExportLog calls fn with every call of the consumer's log matching f, newest first, reading pages
// a few at a time: memory stays bounded however long the log. It reads one snapshot of the log,
// so pages compacted or pruned meanwhile are neither missed nor repeated. It stops at fn's first
// error and returns it.
func (s *UsageStore) ExportLog(ctx context.Context, consumerID int, f LogFilter, fn func(LogCall) error) error {
	var fnErr error
	err := s.eachCall(ctx, &logRead{consumerID: consumerID, f: f, older: true, chunk: 16, snapshot: true}, func(c LogCall) bool {
		fnErr = fn(c)
		return fnErr == nil
	})
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return fmt.Errorf("export request log: %w", err)
	}
	return nil
}

// Column bounds of the request log's detail: a page keeps a call's fields clipped to them.
const (
	maxMethod    = 8
	maxPath      = 512
	maxErrorCode = 64
)

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
