package idempotency

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/idempotencyrecord"
	"github.com/partner-platform/partnerd/ent/predicate"
)

// SQLStore keeps idempotency records in the database (SQLite or PostgreSQL). A unique index on
// (key id, Idempotency-Key) makes the claim atomic across replicas.
type SQLStore struct {
	db *ent.Client
}

// NewSQLStore returns a store on the client.
func NewSQLStore(db *ent.Client) *SQLStore { return &SQLStore{db: db} }

var _ Store = (*SQLStore)(nil)

// Begin implements Store.
func (s *SQLStore) Begin(ctx context.Context, r Request, now time.Time, lease time.Duration) (Outcome, error) {
	// A few rounds at most: each lost race means another call changed the record, which we re-read.
	for range 5 {
		err := s.db.IdempotencyRecord.Create().
			SetKeyID(r.KeyID).SetIdempotencyKey(r.Key).SetBodyHash(r.BodyHash[:]).
			SetCreatedAt(now).SetExpiresAt(now.Add(Window)).SetLeaseUntil(now.Add(lease)).
			Exec(ctx)
		if err == nil {
			return Outcome{State: Started}, nil
		}
		if !ent.IsConstraintError(err) {
			return Outcome{}, fmt.Errorf("begin idempotent call: %w", err)
		}
		rec, err := s.db.IdempotencyRecord.Query().
			Where(idempotencyrecord.KeyID(r.KeyID), idempotencyrecord.IdempotencyKey(r.Key)).Only(ctx)
		if ent.IsNotFound(err) {
			continue // released or swept meanwhile: claim again
		}
		if err != nil {
			return Outcome{}, fmt.Errorf("begin idempotent call: %w", err)
		}
		switch {
		case !rec.ExpiresAt.After(now) && (rec.Done || !rec.LeaseUntil.After(now)):
			// The window ended and no call holds the key (a lease longer than the window keeps it,
			// as Sweep does): the key is free for a new call, whatever its body.
			n, err := s.db.IdempotencyRecord.Update().
				Where(idempotencyrecord.ID(rec.ID), idempotencyrecord.ExpiresAtLTE(now),
					idempotencyrecord.Or(idempotencyrecord.Done(true), idempotencyrecord.LeaseUntilLTE(now))).
				SetBodyHash(r.BodyHash[:]).SetDone(false).SetStatus(0).ClearResponse().ClearRequestID().
				SetExpiresAt(now.Add(Window)).SetLeaseUntil(now.Add(lease)).
				Save(ctx)
			if err != nil {
				return Outcome{}, fmt.Errorf("begin idempotent call: %w", err)
			}
			if n == 1 {
				return Outcome{State: Started}, nil
			}
		case !bytes.Equal(rec.BodyHash, r.BodyHash[:]):
			return Outcome{State: Conflict}, nil
		case rec.Done:
			return Outcome{State: Replay, Response: Response{Status: rec.Status, Body: rec.Response, RequestID: rec.RequestID}}, nil
		case rec.LeaseUntil.After(now):
			return Outcome{State: Pending}, nil
		default:
			// The call holding the key crashed: take the key over.
			n, err := s.db.IdempotencyRecord.Update().
				Where(idempotencyrecord.ID(rec.ID), idempotencyrecord.Done(false), idempotencyrecord.LeaseUntilLTE(now)).
				SetLeaseUntil(now.Add(lease)).
				Save(ctx)
			if err != nil {
				return Outcome{}, fmt.Errorf("begin idempotent call: %w", err)
			}
			if n == 1 {
				return Outcome{State: Started}, nil
			}
		}
	}
	return Outcome{State: Pending}, nil
}

// Finish implements Store. The replay window runs for Window from now.
func (s *SQLStore) Finish(ctx context.Context, r Request, res Response, now time.Time, with Write) error {
	tx, err := s.db.Tx(ctx)
	if err != nil {
		return fmt.Errorf("finish idempotent call: %w", err)
	}
	n, err := tx.IdempotencyRecord.Update().
		Where(s.held(r)...).
		SetDone(true).SetStatus(res.Status).SetResponse(res.Body).SetRequestID(res.RequestID).SetExpiresAt(now.Add(Window)).
		Save(ctx)
	switch {
	case err != nil:
	case n == 0:
		err = ErrNotOwned
	case with != nil:
		err = with(ctx, tx.Client())
	}
	if err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("finish idempotent call: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("finish idempotent call: %w", err)
	}
	return nil
}

// Release implements Store.
func (s *SQLStore) Release(ctx context.Context, r Request) error {
	n, err := s.db.IdempotencyRecord.Delete().Where(s.held(r)...).Exec(ctx)
	if err != nil {
		return fmt.Errorf("release idempotent call: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("release idempotent call: %w", ErrNotOwned)
	}
	return nil
}

// held matches the unfinished record of r.
func (s *SQLStore) held(r Request) []predicate.IdempotencyRecord {
	return []predicate.IdempotencyRecord{
		idempotencyrecord.KeyID(r.KeyID), idempotencyrecord.IdempotencyKey(r.Key),
		idempotencyrecord.BodyHash(r.BodyHash[:]), idempotencyrecord.Done(false),
	}
}

// Sweep implements Store: it deletes records whose window ended and that no call still holds.
func (s *SQLStore) Sweep(ctx context.Context, now time.Time) (int, error) {
	n, err := s.db.IdempotencyRecord.Delete().
		Where(idempotencyrecord.ExpiresAtLT(now), idempotencyrecord.Or(idempotencyrecord.Done(true), idempotencyrecord.LeaseUntilLT(now))).
		Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("sweep idempotency records: %w", err)
	}
	return n, nil
}
