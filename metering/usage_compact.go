package metering

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/ent/usagepage"
)

// Compaction: the recorder writes a page per consumer and class (succeeded or failed) every flush,
// so a quiet consumer's pages hold a few calls each, and a page's fixed cost (its row, four index
// entries, the compressed block's header) is then most of what a call takes. CompactPages merges them.
const (
	// compactBelow is the size under which a page is merged with its neighbours.
	compactBelow = 1_024
	// compactAfter is how long after its last call a page is left alone: a recent page may still
	// be joined by the same hour's calls.
	compactAfter = 2 * time.Minute
	// compactWindow is how far back CompactPages looks: pages written later than that (after a
	// store outage) are left as they are.
	compactWindow = 3 * time.Hour
)

// CompactPages merges each consumer's small pages of the same UTC hour and class, whose last call
// is between compactWindow and compactAfter before now, into as few pages as their calls fill,
// and returns how many pages it removed. Each merge claims its pages by deleting them and writes
// the merged pages in the same transaction, so a call is never lost or stored twice, even with
// replicas compacting at once. The merged calls keep their order, and their times; their ids
// (LogCall.ID) change, so a request log paged across a merge may show again, or skip, calls that
// share the time of the page's last call.
func (s *UsageStore) CompactPages(ctx context.Context, now time.Time) (int, error) {
	consumers, err := s.db.Consumer.Query().IDs(ctx)
	if err != nil {
		return 0, fmt.Errorf("compact usage pages: %w", err)
	}
	removed := 0
	for _, id := range consumers {
		groups, err := s.smallPages(ctx, id, now)
		if err != nil {
			return removed, fmt.Errorf("compact usage pages: %w", err)
		}
		for _, ids := range groups {
			start := time.Now()
			n, err := s.mergePages(ctx, ids)
			if err == nil {
				err = s.yieldWriteLock(ctx, time.Since(start))
			}
			if err != nil {
				return removed, fmt.Errorf("compact usage pages: %w", err)
			}
			removed += n
		}
	}
	return removed, nil
}

// smallPages returns the consumer's pages to merge, grouped by hour and class and in the order
// written, each group holding at most a page's calls (pageCap: one merged page); groups of one
// page are left out.
func (s *UsageStore) smallPages(ctx context.Context, consumerID int, now time.Time) ([][]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT "id", "first_at", "calls", "calls_4xx" + "calls_429" + "calls_5xx" FROM "`+
		usagepage.Table+`" WHERE "consumer_id" = `+s.param(1)+` AND "last_at" >= `+s.param(2)+` AND "last_at" < `+s.param(3)+
		` AND "calls" < `+strconv.Itoa(compactBelow)+` ORDER BY "id"`, consumerID, now.Add(-compactWindow).UTC(), now.Add(-compactAfter).UTC())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type place struct {
		hour   time.Time
		failed bool
	}
	type group struct {
		ids   []int
		calls int
	}
	open := map[place]*group{} // the group each place is filling
	var groups []*group
	for rows.Next() {
		var id, calls, failed int
		var first time.Time
		if err := rows.Scan(&id, &first, &calls, &failed); err != nil {
			return nil, err
		}
		p := place{Hour(first), failed > 0}
		g := open[p]
		if g == nil || g.calls+calls > pageCap(p.failed) {
			g = &group{}
			open[p] = g
			groups = append(groups, g)
		}
		g.ids, g.calls = append(g.ids, id), g.calls+calls
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out [][]int
	for _, g := range groups {
		if len(g.ids) > 1 {
			out = append(out, g.ids)
		}
	}
	return out, nil
}

// mergePages replaces the pages with ids by pages of their calls, in one transaction, and returns
// how many fewer pages there are. Pages another replica took first are left out; when fewer than
// two are left, nothing changes.
func (s *UsageStore) mergePages(ctx context.Context, ids []int) (int, error) {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return 0, err
	}
	rollback := func(err error) (int, error) { return 0, fmt.Errorf("%w (rolled back: %v)", err, tx.Rollback()) }
	marks := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		marks[i], args[i] = s.param(i+1), id
	}
	rows, err := tx.QueryContext(ctx, `DELETE FROM "`+usagepage.Table+`" WHERE "id" IN (`+strings.Join(marks, ", ")+`) RETURNING "id", "data"`, args...)
	if err != nil {
		return rollback(err)
	}
	type taken struct {
		id   int
		data []byte
	}
	var pages []taken
	for rows.Next() {
		var p taken
		if err := rows.Scan(&p.id, &p.data); err != nil {
			rows.Close()
			return rollback(err)
		}
		pages = append(pages, p)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return rollback(err)
	}
	if len(pages) < 2 {
		return 0, tx.Rollback()
	}
	slices.SortFunc(pages, func(a, b taken) int { return a.id - b.id })
	var calls []Call
	for _, p := range pages {
		c, err := DecodePage(p.data)
		if err != nil {
			return rollback(fmt.Errorf("usage page %d: %w", p.id, err))
		}
		calls = append(calls, c...)
	}
	merged, err := s.insertPages(ctx, tx, calls)
	if err != nil {
		return rollback(err)
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return len(pages) - merged, nil
}
