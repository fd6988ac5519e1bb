package market

import (
	"context"
	"slices"

	"github.com/partner-platform/partnerd/index"
)

// trimSlack is how far past a day old the window's oldest events may get before they are dropped:
// activity reads events older than a window as its opening price, so keeping them a little longer
// changes no figure and lets trimming run once in a while instead of every refresh.
const trimSlack = 10 * 60

// dayWindow is a chain's pool events of the last day, read from the index once and then only as it
// grows, so that a refresh reads what is new instead of the whole day. It is owned by one refresh
// at a time.
type dayWindow struct {
	version index.Version            // the index the window holds, up to its Block
	since   int64                    // events from this time on are held
	events  map[string][]index.Event // by pool, every kind, in chain order
	before  map[string]float64       // by pool with events: the price of its last event before since (0: none)
}

// loadWindow reads the day before now from the index at version v.
func (s *Service) loadWindow(ctx context.Context, chainName string, v index.Version, now int64) (*dayWindow, error) {
	w := &dayWindow{version: v, since: now - windows[3], events: map[string][]index.Event{}, before: map[string]float64{}}
	events, err := s.index.ChainEvents(ctx, chainName, -1, v.Block, w.since)
	if err != nil {
		return nil, err
	}
	return w, s.add(ctx, chainName, w, events)
}

// grow adds the index's events after the window's version up to v. Events older than the window
// (the indexer backfilling) are left out: a pool's opening price is read with its first event in
// the window.
func (s *Service) grow(ctx context.Context, chainName string, w *dayWindow, v index.Version) error {
	events, err := s.index.ChainEvents(ctx, chainName, w.version.Block, v.Block, w.since)
	if err != nil {
		return err
	}
	w.version = v
	return s.add(ctx, chainName, w, events)
}

// add appends events (in chain order, none older than the window) to their pools. A pool new to
// the window gets its opening price from the index: one query per pool that had nothing in the
// window yet.
func (s *Service) add(ctx context.Context, chainName string, w *dayWindow, events []index.Event) error {
	for _, e := range events {
		if _, held := w.events[e.Pool]; !held {
			before, _, err := s.index.LastEventBefore(ctx, chainName, e.Pool, w.since)
			if err != nil {
				return err
			}
			w.before[e.Pool] = before.PriceUSD
		}
		w.events[e.Pool] = append(w.events[e.Pool], e)
	}
	return nil
}

// trim drops the events more than a day (and trimSlack) before now; the last one dropped of each
// pool becomes its opening price, and a pool left without events leaves the window.
func (w *dayWindow) trim(now int64) {
	cutoff := now - windows[3]
	if cutoff-w.since < trimSlack {
		return
	}
	for pool, events := range w.events {
		old := 0
		for old < len(events) && events[old].Time < cutoff {
			old++
		}
		switch {
		case old == len(events):
			delete(w.events, pool)
			delete(w.before, pool)
		case old > 0:
			w.before[pool] = events[old-1].PriceUSD
			w.events[pool] = slices.Clone(events[old:])
		}
	}
	w.since = cutoff
}

// figures is each pool's figures as of now; a pool without events in the window has none.
func (w *dayWindow) figures(now int64) map[string]*Figures {
	out := make(map[string]*Figures, len(w.events))
	for pool, events := range w.events {
		out[pool] = activity(events, w.before[pool], now, false)
	}
	return out
}
