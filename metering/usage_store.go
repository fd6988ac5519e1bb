package metering

import (
	"context"
	"errors"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/ent/usagedaily"
	"github.com/partner-platform/partnerd/ent/usagerecord"
)

// UsageRetention is how long usage is kept and shown.
const UsageRetention = 30 * 24 * time.Hour

// UsageStore keeps usage in the database: raw calls for the recent-calls log and request-id
// lookups, and daily rollups per key and operation that usage pages and the CLI read.
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

type rollup struct{ calls, cost, errors int64 }

// WriteCalls implements UsageWriter: one transaction inserts the raw calls, adds them to the daily
// rollups and moves each key's last use forward.
func (s *UsageStore) WriteCalls(ctx context.Context, calls []Call) error {
	if len(calls) == 0 {
		return nil
	}
	rollups := map[rollupKey]*rollup{}
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
		r.calls++
		r.cost += int64(c.Cost)
		if c.Status >= 400 {
			r.errors++
		}
		if c.At.After(lastUsed[c.KeyID]) {
			lastUsed[c.KeyID] = c.At
		}
	}
	err = s.write(ctx, tx, calls, rollups, lastUsed)
	if err != nil {
		return fmt.Errorf("write usage: %w", errors.Join(err, tx.Rollback()))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write usage: %w", err)
	}
	return nil
}

func (s *UsageStore) write(ctx context.Context, tx *ent.Tx, calls []Call, rollups map[rollupKey]*rollup, lastUsed map[int]time.Time) error {
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
	for k, r := range rollups {
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
	for keyID, at := range lastUsed {
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

// Recent returns the consumer's newest calls, optionally only the one with requestID.
func (s *UsageStore) Recent(ctx context.Context, consumerID int, requestID string, limit int) ([]RecentCall, error) {
	q := s.db.UsageRecord.Query().Where(usagerecord.ConsumerID(consumerID)).
		Order(usagerecord.ByAt(sql.OrderDesc()), usagerecord.ByID(sql.OrderDesc())).Limit(limit)
	if requestID != "" {
		q.Where(usagerecord.RequestID(requestID))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read recent calls: %w", err)
	}
	out := make([]RecentCall, len(rows))
	for i, r := range rows {
		out[i] = RecentCall{At: r.At, KeyID: r.KeyID, Operation: r.Operation, Status: r.Status, Cost: r.Cost,
			LatencyUs: r.LatencyUs, Chain: r.Chain, RequestID: r.RequestID}
	}
	return out, nil
}

// Prune deletes usage older than the retention before now and returns how many raw calls it deleted.
func (s *UsageStore) Prune(ctx context.Context, now time.Time) (int, error) {
	cutoff := now.Add(-UsageRetention)
	n, err := s.db.UsageRecord.Delete().Where(usagerecord.AtLT(cutoff)).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("prune usage: %w", err)
	}
	if _, err := s.db.UsageDaily.Delete().Where(usagedaily.DayLT(Day(cutoff))).Exec(ctx); err != nil {
		return n, fmt.Errorf("prune usage rollups: %w", err)
	}
	return n, nil
}
