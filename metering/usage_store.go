package metering

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagehourly"
	"github.com/partner-platform/partnerd/ent/usagerecord"
)

// UsageRetention is how long usage is kept and shown.
const UsageRetention = 30 * 24 * time.Hour

// UsageStore keeps usage in the database: raw calls for the recent-calls log and request-id
// lookups; daily rollups per key and operation, and hourly rollups per consumer, which usage pages,
// the operators' consumer list and the CLI read (Report, Summaries, Daily), never the raw calls.
type UsageStore struct {
	db      *ent.Client
	dialect string
}

// NewUsageStore returns a usage store on the client; dialect is the store's (entgo.io/ent/dialect).
func NewUsageStore(db *ent.Client, dialect string) *UsageStore {
	return &UsageStore{db: db, dialect: dialect}
}

type rollupKey struct {
	consumerID, keyID int
	day, operation    string
}

// hourKey names an hourly rollup: the consumer and the start of the UTC hour in Unix seconds.
type hourKey struct {
	consumerID int
	hour       int64
}

type rollup struct{ calls, cost, errors int64 }

func (r *rollup) add(c Call) {
	r.calls++
	r.cost += int64(c.Cost)
	if c.Status >= 400 {
		r.errors++
	}
}

// Hour is the start of the UTC hour of t, as hourly rollups name it.
func Hour(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) }

// WriteCalls implements UsageWriter: one transaction inserts the raw calls, adds them to the daily
// rollups (per key, UTC day and operation) and the hourly rollups (per consumer and UTC hour), and
// moves each key's last use forward. Rows are updated in a fixed order (daily rollups by key, day and
// operation, hourly rollups by consumer and hour, then keys by id), so replicas writing at once for
// the same consumer wait for each other's locks instead of deadlocking.
func (s *UsageStore) WriteCalls(ctx context.Context, calls []Call) error {
	if len(calls) == 0 {
		return nil
	}
	rollups := map[rollupKey]*rollup{}
	hourly := map[hourKey]*rollup{}
	lastUsed := map[int]time.Time{}
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return fmt.Errorf("write usage: %w", err)
	}
	for _, c := range calls {
		k := rollupKey{c.ConsumerID, c.KeyID, Day(c.At), c.Operation}
		r := rollups[k]
		if r == nil {
			r = &rollup{}
			rollups[k] = r
		}
		r.add(c)
		hk := hourKey{c.ConsumerID, Hour(c.At).Unix()}
		h := hourly[hk]
		if h == nil {
			h = &rollup{}
			hourly[hk] = h
		}
		h.add(c)
		if c.At.After(lastUsed[c.KeyID]) {
			lastUsed[c.KeyID] = c.At
		}
	}
	err = s.write(ctx, tx, calls, rollups, hourly, lastUsed)
	if err != nil {
		return fmt.Errorf("write usage: %w", errors.Join(err, tx.Rollback()))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write usage: %w", err)
	}
	return nil
}

func (s *UsageStore) write(ctx context.Context, tx *ent.Tx, calls []Call, rollups map[rollupKey]*rollup,
	hourly map[hourKey]*rollup, lastUsed map[int]time.Time) error {
	// Raw calls go in as plain multi-row INSERTs: ent's bulk create reads every new id back, which
	// costs more than the insert itself and no one needs the ids. 500 rows stay under SQLite's and
	// PostgreSQL's bound-parameter limits.
	for i := 0; i < len(calls); i += 500 {
		q := sql.Dialect(s.dialect).Insert(usagerecord.Table).Columns(
			usagerecord.FieldConsumerID, usagerecord.FieldKeyID, usagerecord.FieldOperation, usagerecord.FieldStatus,
			usagerecord.FieldCost, usagerecord.FieldLatencyUs, usagerecord.FieldChain, usagerecord.FieldRequestID, usagerecord.FieldAt)
		for _, c := range calls[i:min(i+500, len(calls))] {
			q.Values(c.ConsumerID, c.KeyID, c.Operation, c.Status, c.Cost, c.Latency.Microseconds(), c.Chain, c.RequestID, c.At.UTC())
		}
		query, args := q.Query()
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return err
		}
	}
	dailyKeys := slices.SortedFunc(maps.Keys(rollups), func(a, b rollupKey) int {
		return cmp.Or(cmp.Compare(a.keyID, b.keyID), cmp.Compare(a.day, b.day), cmp.Compare(a.operation, b.operation))
	})
	for _, k := range dailyKeys {
		r := rollups[k]
		err := tx.UsageDaily.Create().
			SetConsumerID(k.consumerID).SetKeyID(k.keyID).SetDay(k.day).SetOperation(k.operation).
			SetCalls(r.calls).SetCost(r.cost).SetErrors(r.errors).
			OnConflictColumns(usagedaily.FieldKeyID, usagedaily.FieldDay, usagedaily.FieldOperation).
			Update(func(u *ent.UsageDailyUpsert) {
				u.AddCalls(r.calls).AddCost(r.cost).AddErrors(r.errors)
			}).Exec(ctx)
		if err != nil {
			return err
		}
	}
	hourKeys := slices.SortedFunc(maps.Keys(hourly), func(a, b hourKey) int {
		return cmp.Or(cmp.Compare(a.consumerID, b.consumerID), cmp.Compare(a.hour, b.hour))
	})
	for _, k := range hourKeys {
		r := hourly[k]
		err := tx.UsageHourly.Create().
			SetConsumerID(k.consumerID).SetHour(time.Unix(k.hour, 0).UTC()).
			SetCalls(r.calls).SetCost(r.cost).SetErrors(r.errors).
			OnConflictColumns(usagehourly.FieldConsumerID, usagehourly.FieldHour).
			Update(func(u *ent.UsageHourlyUpsert) {
				u.AddCalls(r.calls).AddCost(r.cost).AddErrors(r.errors)
			}).Exec(ctx)
		if err != nil {
			return err
		}
	}
	for _, keyID := range slices.Sorted(maps.Keys(lastUsed)) {
		at := lastUsed[keyID]
		err := tx.APIKey.Update().
			Where(apikey.ID(keyID), apikey.Or(apikey.LastUsedAtIsNil(), apikey.LastUsedAtLT(at))).
			SetLastUsedAt(at).Exec(ctx)
		if err != nil {
			return err
		}
	}
	return nil
}

// Day is the UTC day of t as rollups name it.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// DailyUsage is one rollup row.
type DailyUsage struct {
	Day       string `json:"day"`
	KeyID     int    `json:"keyId"`
	Operation string `json:"operation"`
	Calls     int64  `json:"calls"`
	Cost      int64  `json:"cost"`
	Errors    int64  `json:"errors"`
}

// Daily returns the consumer's rollups for the days since `since` (inclusive), oldest first.
func (s *UsageStore) Daily(ctx context.Context, consumerID int, since time.Time) ([]DailyUsage, error) {
	rows, err := s.db.UsageDaily.Query().
		Where(usagedaily.ConsumerID(consumerID), usagedaily.DayGTE(Day(since))).
		Order(ent.Asc(usagedaily.FieldDay), ent.Asc(usagedaily.FieldKeyID), ent.Asc(usagedaily.FieldOperation)).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read daily usage: %w", err)
	}
	out := make([]DailyUsage, len(rows))
	for i, r := range rows {
		out[i] = DailyUsage{Day: r.Day, KeyID: r.KeyID, Operation: r.Operation, Calls: r.Calls, Cost: r.Cost, Errors: r.Errors}
	}
	return out, nil
}

// RecentCall is one raw call of the recent-calls log.
type RecentCall struct {
	At        time.Time `json:"at"`
	KeyID     int       `json:"keyId"`
	Operation string    `json:"operation"`
	Status    int       `json:"status"`
	Cost      int       `json:"cost"`
	LatencyUs int64     `json:"latencyUs"`
	Chain     string    `json:"chain,omitempty"`
	RequestID string    `json:"requestId"`
}

// RecentFilter narrows the recent-calls log.
type RecentFilter struct {
	KeyID     int    // 0: every key of the consumer
	RequestID string // "": every call
}

// Recent returns the consumer's newest calls matching f, newest first. A request-id lookup reads
// that id's rows through its index (there are at most a few) and orders them here: asking the
// database to order would let SQLite walk the consumer's whole history by time instead.
func (s *UsageStore) Recent(ctx context.Context, consumerID int, f RecentFilter, limit int) ([]RecentCall, error) {
	q := s.db.UsageRecord.Query().Where(usagerecord.ConsumerID(consumerID))
	if f.KeyID != 0 {
		q.Where(usagerecord.KeyID(f.KeyID))
	}
	if f.RequestID != "" {
		q.Where(usagerecord.RequestID(f.RequestID))
	} else {
		q.Order(usagerecord.ByAt(sql.OrderDesc()), usagerecord.ByID(sql.OrderDesc())).Limit(limit)
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read recent calls: %w", err)
	}
	slices.SortStableFunc(rows, func(a, b *ent.UsageRecord) int {
		return cmp.Or(b.At.Compare(a.At), cmp.Compare(b.ID, a.ID))
	})
	rows = rows[:min(len(rows), limit)]
	out := make([]RecentCall, len(rows))
	for i, r := range rows {
		out[i] = RecentCall{At: r.At, KeyID: r.KeyID, Operation: r.Operation, Status: r.Status, Cost: r.Cost,
			LatencyUs: r.LatencyUs, Chain: r.Chain, RequestID: r.RequestID}
	}
	return out, nil
}

// Prune deletes usage older than the retention before now and returns how many raw calls it deleted:
// raw calls before now-UsageRetention, and the rollups wholly before it (the daily rollups of earlier
// UTC days, the hourly rollups of earlier UTC hours; the rollups of the cutoff's own day and hour stay).
func (s *UsageStore) Prune(ctx context.Context, now time.Time) (int, error) {
	cutoff := now.Add(-UsageRetention)
	n, err := s.db.UsageRecord.Delete().Where(usagerecord.AtLT(cutoff)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("prune usage: %w", err)
	}
	if _, err := s.db.UsageDaily.Delete().Where(usagedaily.DayLT(Day(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune usage rollups: %w", err)
	}
	if _, err := s.db.UsageHourly.Delete().Where(usagehourly.HourLT(Hour(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune hourly usage rollups: %w", err)
	}
	return n, nil
}
