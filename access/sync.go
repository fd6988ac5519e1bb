package access

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consumer"
	"github.com/partner-platform/partnerd/policy"
)

// DefaultSyncInterval is how often a replica polls the store for changes. Changes made anywhere
// (CLI, console, another replica) reach this replica's policy and key cache within one interval
// plus one reload; a change made through this replica's own Service takes effect at once via Refresh.
const DefaultSyncInterval = 2 * time.Second

// minRefreshGap bounds on-demand reloads (a valid key whose consumer the loaded policy lacks).
const minRefreshGap = 250 * time.Millisecond

// PolicyLoader receives the consumer policy.
type PolicyLoader interface {
	Load(consumers []policy.Consumer) error
}

// Sync keeps a replica's policy and key cache in step with the store.
type Sync struct {
	svc      *Service
	policy   PolicyLoader
	verifier *Verifier
	log      *slog.Logger

	mu       sync.Mutex // one reload at a time
	mark     changeMark
	loadedAt time.Time
}

// NewSync returns a Sync; call Refresh once before serving, then Run.
func NewSync(svc *Service, p PolicyLoader, v *Verifier, log *slog.Logger) *Sync {
	return &Sync{svc: svc, policy: p, verifier: v, log: log}
}

// Refresh reloads the policy and purges the key cache now. When a reload finished within the last
// 250 ms and the store has not changed since (same change mark), on-demand callers share that
// reload instead; a change made meanwhile is always loaded.
func (s *Sync) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.loadedAt) < minRefreshGap {
		mark, err := s.svc.changeMark(ctx)
		if err != nil {
			return err
		}
		if mark == s.mark {
			return nil
		}
	}
	return s.reloadLocked(ctx)
}

// Run polls the change mark (see changeMark) every interval and reloads on change, until ctx ends.
func (s *Sync) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		mark, err := s.svc.changeMark(ctx)
		if ctx.Err() != nil { // stopping: a read the stop cut short is no failure
			return
		}
		if err != nil {
			s.log.Warn("poll store for changes", "err", err)
			continue
		}
		s.mu.Lock()
		if mark != s.mark {
			if err := s.reloadLocked(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("reload policy", "err", err)
			}
		}
		s.mu.Unlock()
	}
}

// reload reloads the policy and purges the key cache now, without Refresh's shortcut. The change
// feed uses it: a notification means a change was committed.
func (s *Sync) reload(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reloadLocked(ctx)
}

func (s *Sync) reloadLocked(ctx context.Context) error {
	// Read the mark first: a change landing during the load is seen by the next poll.
	mark, err := s.svc.changeMark(ctx)
	if err != nil {
		return err
	}
	consumers, err := s.svc.PolicySnapshot(ctx)
	if err != nil {
		return err
	}
	if err := s.policy.Load(consumers); err != nil {
		return fmt.Errorf("load policy: %w", err)
	}
	s.verifier.Purge()
	s.mark, s.loadedAt = mark, time.Now()
	return nil
}

// PolicySnapshot reads every consumer's policy facts. Consumers with access off are included: the
// key check refuses them before policy is consulted.
func (s *Service) PolicySnapshot(ctx context.Context) ([]policy.Consumer, error) {
	rows, err := s.db.Consumer.Query().WithScopes().WithSources().Order(ent.Asc(consumer.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read policy snapshot: %w", err)
	}
	out := make([]policy.Consumer, len(rows))
	for i, r := range rows {
		c := policy.Consumer{ID: r.ID, DisabledOperations: r.DisabledOperations}
		for _, g := range r.Edges.Scopes {
			c.Scopes = append(c.Scopes, g.Scope)
		}
		for _, a := range r.Edges.Sources {
			p, err := netip.ParsePrefix(a.Cidr)
			if err != nil {
				return nil, fmt.Errorf("read policy snapshot: consumer %d: stored CIDR %q: %w", r.ID, a.Cidr, err)
			}
			c.Sources = append(c.Sources, p)
		}
		out[i] = c
	}
	return out, nil
}
