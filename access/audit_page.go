package access

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/auditentry"
	"github.com/partner-platform/partnerd/ent/consumer"
)

// Audit page sizes.
const (
	DefaultAuditPageSize = 50
	MaxAuditPageSize     = 200
)

// AuditFilter narrows the audit log; zero fields match everything.
type AuditFilter struct {
	ConsumerID int
	Actor      string
	Action     string
}

// AuditPage is one page of the audit log, newest first, with the names of what its entries refer to.
type AuditPage struct {
	Entries []AuditRecord
	// Next is the cursor of the next, older page; empty on the last page.
	Next string
	// Consumers are the current names of the consumers the entries refer to, by id; a consumer that
	// no longer exists is absent.
	Consumers map[int]string
	// Keys are the keys the entries' targets name ("key 12"), by id; a key that no longer exists is absent.
	Keys map[int]AuditKey
}

// AuditKey is how an audit page names a key: its current name and its prefix.
type AuditKey struct {
	Name, Prefix string
	ConsumerID   int
}

// KeyTarget returns the key id of an audit target written as "key 12", or false.
func KeyTarget(target string) (int, bool) {
	rest, ok := strings.CutPrefix(target, "key ")
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(rest)
	return id, err == nil && id > 0
}

// auditCursor is the position after the last entry of a page: its time and id ("<unix ns>-<id>").
type auditCursor struct {
	at time.Time
	id int
}

func (c auditCursor) String() string {
	return strconv.FormatInt(c.at.UnixNano(), 10) + "-" + strconv.Itoa(c.id)
}

func parseAuditCursor(s string) (auditCursor, error) {
	ns, id, ok := strings.Cut(s, "-")
	n, err1 := strconv.ParseInt(ns, 10, 64)
	i, err2 := strconv.Atoi(id)
	if !ok || err1 != nil || err2 != nil || i <= 0 {
		return auditCursor{}, fmt.Errorf("%w: the page position %q is not one the audit log gave out", ErrInvalid, s)
	}
	return auditCursor{at: time.Unix(0, n).UTC(), id: i}, nil
}

// AuditPageOf returns a page of the audit log: entries matching f, newest first, after cursor
// (empty: from the newest), at most limit of them (DefaultAuditPageSize when 0, at most
// MaxAuditPageSize). Paging is by keyset, no offset: filtered on (at, id), served by the
// (consumer_id, at), (actor, at) and (action, at) indexes; unfiltered on id, the primary key. A
// consumer's actor sees only its own entries.
// Names of the consumers and keys the page refers to are read in one query each for the page.
// A cursor that is not one the log gave out is ErrInvalid.
func (s *Service) AuditPageOf(ctx context.Context, a Actor, f AuditFilter, cursor string, limit int) (AuditPage, error) {
	if a.ConsumerID != 0 {
		f.ConsumerID = a.ConsumerID
	}
	if limit <= 0 {
		limit = DefaultAuditPageSize
	}
	limit = min(limit, MaxAuditPageSize)
	// Filtered, newest first by time on the filter's (x, at) index; unfiltered, by id on the primary
	// key (no index has the time alone, and ids follow the time: each entry's time is taken as it is
	// written). Either is a total order its cursor continues.
	byID := f == (AuditFilter{})
	q := s.db.AuditEntry.Query().Limit(limit + 1)
	if byID {
		q.Order(ent.Desc(auditentry.FieldID))
	} else {
		q.Order(ent.Desc(auditentry.FieldAt), ent.Desc(auditentry.FieldID))
	}
	if f.ConsumerID != 0 {
		q.Where(auditentry.ConsumerID(f.ConsumerID))
	}
	if f.Actor != "" {
		q.Where(auditentry.Actor(f.Actor))
	}
	if f.Action != "" {
		q.Where(auditentry.Action(f.Action))
	}
	if cursor != "" {
		c, err := parseAuditCursor(cursor)
		if err != nil {
			return AuditPage{}, err
		}
		if byID {
			q.Where(auditentry.IDLT(c.id))
		} else {
			// at <= cursor bounds the index range; the OR then drops the entries of that instant already shown.
			q.Where(auditentry.AtLTE(c.at), auditentry.Or(auditentry.AtLT(c.at), auditentry.IDLT(c.id)))
		}
	}
	rows, err := q.All(ctx)
	if err != nil {
		return AuditPage{}, fmt.Errorf("read audit log: %w", err)
	}
	var page AuditPage
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[limit-1]
		page.Next = auditCursor{at: last.At, id: last.ID}.String()
	}
	page.Entries = make([]AuditRecord, len(rows))
	consumerIDs, keyIDs := map[int]bool{}, map[int]bool{}
	for i, r := range rows {
		page.Entries[i] = AuditRecord{ID: r.ID, Actor: r.Actor, Action: r.Action, Target: r.Target, Reason: r.Reason, Before: r.Before, After: r.After, At: r.At}
		if r.ConsumerID != nil {
			page.Entries[i].ConsumerID = *r.ConsumerID
			consumerIDs[*r.ConsumerID] = true
		}
		if id, ok := KeyTarget(r.Target); ok {
			keyIDs[id] = true
		}
	}
	if page.Consumers, err = s.consumerNames(ctx, slices.Collect(maps.Keys(consumerIDs))); err != nil {
		return AuditPage{}, err
	}
	if page.Keys, err = s.auditKeys(ctx, a, slices.Collect(maps.Keys(keyIDs))); err != nil {
		return AuditPage{}, err
	}
	return page, nil
}

// consumerNames reads the names of consumers by id, in one query.
func (s *Service) consumerNames(ctx context.Context, ids []int) (map[int]string, error) {
	out := map[int]string{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.db.Consumer.Query().Where(consumer.IDIn(ids...)).Select(consumer.FieldID, consumer.FieldName).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read consumer names: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.Name
	}
	return out, nil
}

// auditKeys reads the names of keys by id, in one query; a consumer's actor gets only its own.
func (s *Service) auditKeys(ctx context.Context, a Actor, ids []int) (map[int]AuditKey, error) {
	out := map[int]AuditKey{}
	if len(ids) == 0 {
		return out, nil
	}
	q := s.db.APIKey.Query().Where(apikey.IDIn(ids...))
	if a.ConsumerID != 0 {
		q.Where(apikey.ConsumerID(a.ConsumerID))
	}
	rows, err := q.Select(apikey.FieldID, apikey.FieldName, apikey.FieldPrefix, apikey.FieldConsumerID).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read key names: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = AuditKey{Name: r.Name, Prefix: r.Prefix, ConsumerID: r.ConsumerID}
	}
	return out, nil
}

// AuditFacets are the actors and actions the audit log holds, sorted: the choices of its filters.
type AuditFacets struct {
	Actors, Actions []string
}

// maxAuditFacets bounds each list of choices.
const maxAuditFacets = 500

// AuditFacetsOf returns the distinct actors and actions of the audit log (a consumer's actor: of
// its own entries), at most maxAuditFacets of each.
func (s *Service) AuditFacetsOf(ctx context.Context, a Actor) (AuditFacets, error) {
	var out AuditFacets
	for _, f := range []struct {
		field string
		into  *[]string
	}{{auditentry.FieldActor, &out.Actors}, {auditentry.FieldAction, &out.Actions}} {
		q := s.db.AuditEntry.Query()
		if a.ConsumerID != 0 {
			q.Where(auditentry.ConsumerID(a.ConsumerID))
		}
		vals, err := q.Unique(true).Order(sql.OrderByField(f.field).ToFunc()).Limit(maxAuditFacets).Select(f.field).Strings(ctx)
		if err != nil {
			return AuditFacets{}, fmt.Errorf("read audit filters: %w", err)
		}
		*f.into = vals
	}
	return out, nil
}
