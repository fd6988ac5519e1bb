package access

import (
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/auditentry"
)

// Errors of the Service besides the ent ones it wraps.
var (
	ErrNotFound = errors.New("not found")
	ErrInvalid  = errors.New("invalid")
	ErrConflict = errors.New("conflict")
)

// Scopes are the scopes a consumer can be granted.
var Scopes = []string{"market:read", "portfolio:read", "quote:read", "tx:build"}

// Actor is who makes a change. An operator may touch any consumer; a consumer's own user
// (ConsumerID set) only that consumer: every query of the Service filters by it.
type Actor struct {
	Name       string // shown in the audit log: "cli", "operator:alice@example.com", "user:bob@partner.com"
	ConsumerID int    // 0 for operators
}

// Operator returns an operator actor.
func Operator(name string) Actor { return Actor{Name: name} }

// Service changes and reads consumers, their grants and their keys. It is the one way the CLI,
// the console and the gateway's loaders reach them; every change writes an audit entry in the
// same transaction, and the audit entry's id is the change counter replicas poll; the change is
// announced to every replica on commit (notify.go).
type Service struct {
	db         *ent.Client
	now        func() time.Time
	operations map[string]bool
	throttle   *Throttle  // failed sign-ins; see WithSignInThrottle
	box        *SecretBox // seals TOTP seeds; nil: two-factor sign-in cannot be set up (WithSecretBox)
	changes    changes    // announces committed changes to the replicas (notify.go)
}

// ServiceOption configures NewService.
type ServiceOption func(*Service)

// WithOperations sets the operation ids that may be switched off per consumer.
func WithOperations(ids []string) ServiceOption {
	return func(s *Service) {
		for _, id := range ids {
			s.operations[id] = true
		}
	}
}

// WithServiceClock sets the clock (tests).
func WithServiceClock(now func() time.Time) ServiceOption { return func(s *Service) { s.now = now } }

// NewService returns a Service on the store's client.
func NewService(db *ent.Client, opts ...ServiceOption) *Service {
	s := &Service{db: db, now: time.Now, operations: map[string]bool{}}
	s.throttle = NewThrottle(WithThrottleClock(func() time.Time { return s.now() })) // follows WithServiceClock
	for _, o := range opts {
		o(s)
	}
	return s
}

// inTx runs fn in a transaction, rolling back on error.
func (s *Service) inTx(ctx context.Context, fn func(tx *ent.Tx) error) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}

// audit writes one audit entry inside tx and announces the change to every replica when tx
// commits (announce, notify.go). Every change goes through here: the entry's id is the change
// counter replicas poll, and the announcement is what makes them reload at once.
func (s *Service) audit(ctx context.Context, tx *ent.Tx, a Actor, action string, consumerID int, target, reason string, before, after any) error {
	q := tx.AuditEntry.Create().
		SetActor(a.Name).SetAction(action).SetTarget(target).SetReason(reason).SetAt(s.now())
	if consumerID != 0 {
		q.SetConsumerID(consumerID)
	}
	if before != nil {
		q.SetBefore(asMap(before))
	}
	if after != nil {
		q.SetAfter(asMap(after))
	}
	e, err := q.Save(ctx)
	if err != nil {
		return fmt.Errorf("write audit entry: %w", err)
	}
	return s.announce(ctx, tx, e.ID)
}

// Revision returns the store's change counter: the id of the newest audit entry (0 when none).
func (s *Service) Revision(ctx context.Context) (int, error) {
	e, err := s.db.AuditEntry.Query().Order(ent.Desc("id")).First(ctx)
	if ent.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read revision: %w", err)
	}
	return e.ID, nil
}

// changeMark is what the periodic sync compares: the newest audit entry's id and the number of
// entries. The id alone can miss a change: ids are handed out in one order and may be committed in
// another, so an entry committed late, below the newest id already seen, moves only the count.
type changeMark struct{ newest, entries int }

func (s *Service) changeMark(ctx context.Context) (changeMark, error) {
	var v []struct {
		Max   stdsql.NullInt64 `json:"max"`
		Count int              `json:"count"`
	}
	if err := s.db.AuditEntry.Query().Aggregate(ent.Max(auditentry.FieldID), ent.Count()).Scan(ctx, &v); err != nil {
		return changeMark{}, fmt.Errorf("read change mark: %w", err)
	}
	if len(v) != 1 {
		return changeMark{}, fmt.Errorf("read change mark: %d rows", len(v))
	}
	return changeMark{newest: int(v[0].Max.Int64), entries: v[0].Count}, nil
}

// notFound turns ent's not-found into ErrNotFound naming what was missing.
func notFound(err error, what string, id int) error {
	if ent.IsNotFound(err) {
		return fmt.Errorf("%s %d: %w", what, id, ErrNotFound)
	}
	return err
}
