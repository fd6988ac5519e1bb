package access

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/apikey"
	"github.com/partner-platform/partnerd/metering"
)

// Rotation grace limits.
const (
	DefaultRotationGrace = 24 * time.Hour
	MaxRotationGrace     = 7 * 24 * time.Hour
)

// Key statuses as shown to people.
const (
	KeyActive   = "active"
	KeyExpiring = "expiring" // works until ExpiresAt
	KeyExpired  = "expired"
	KeyRevoked  = "revoked"
)

// KeyInfo is a key's metadata: everything but the secret.
type KeyInfo struct {
	ID            int        `json:"id"`
	ConsumerID    int        `json:"consumerId"`
	Name          string     `json:"name"`
	Prefix        string     `json:"prefix"`
	Status        string     `json:"status"`
	CreatedAt     time.Time  `json:"createdAt"`
	LastUsedAt    *time.Time `json:"lastUsedAt"`
	ExpiresAt     *time.Time `json:"expiresAt"`
	RevokedAt     *time.Time `json:"revokedAt"`
	RotatedFromID *int       `json:"rotatedFromId"`
	// ReplacedByID is the key that replaced this one by rotation (its successor); nil: none.
	// Filled by ListKeys.
	ReplacedByID *int `json:"replacedById,omitempty"`
	// Scopes of a restricted key; nil: all of its consumer's.
	Scopes []string `json:"scopes"`
	// SourceCIDRs is the key's own allowlist, applied together with its consumer's; nil: none.
	SourceCIDRs []string `json:"sourceCidrs"`
}

// Restricted reports whether the key carries its own scopes or allowlist.
func (k KeyInfo) Restricted() bool { return k.Scopes != nil || len(k.SourceCIDRs) > 0 }

// IssuedKey is a key just created: the only time its secret is available.
type IssuedKey struct {
	KeyInfo
	Key string `json:"key"`
}

// CreateKey issues a new key for the consumer, with all of its rights. Errors: ErrNotFound,
// ErrInvalid.
func (s *Service) CreateKey(ctx context.Context, a Actor, consumerID int, name string) (IssuedKey, error) {
	return s.CreateKeyWith(ctx, a, consumerID, name, KeyOptions{})
}

// CreateKeyWith issues a new key for the consumer, restricted by o (see KeyOptions). Errors:
// ErrNotFound, ErrInvalid (a bad name, or a *FieldError per bad option: a scope the consumer
// lacks, a malformed CIDR, an expiry not in the future).
func (s *Service) CreateKeyWith(ctx context.Context, a Actor, consumerID int, name string, o KeyOptions) (IssuedKey, error) {
	var out IssuedKey
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		var err error
		out, err = s.issue(ctx, tx, a, consumerID, name, nil, o)
		return err
	})
	if err != nil {
		return IssuedKey{}, fmt.Errorf("create key: %w", err)
	}
	return out, nil
}

// issue creates a key: a new one restricted by o, or the successor of from, which carries from's
// restriction (o is then ignored).
func (s *Service) issue(ctx context.Context, tx *ent.Tx, a Actor, consumerID int, name string, from *ent.APIKey, o KeyOptions) (IssuedKey, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return IssuedKey{}, fmt.Errorf("%w: key name must be 1 to 200 characters", ErrInvalid)
	}
	if a.ConsumerID != 0 && a.ConsumerID != consumerID {
		return IssuedKey{}, fmt.Errorf("consumer %d: %w", consumerID, ErrNotFound)
	}
	cons, err := readConsumer(ctx, tx.Client(), consumerID)
	if err != nil {
		return IssuedKey{}, notFound(err, "consumer", consumerID)
	}
	var scopes, sources []string
	if from == nil {
		if scopes, sources, err = checkKeyOptions(o, cons.Scopes, s.now()); err != nil {
			return IssuedKey{}, err
		}
	} else {
		scopes, sources = from.Scopes, from.SourceCidrs
	}
	k, err := NewKey()
	if err != nil {
		return IssuedKey{}, err
	}
	h := k.Hash()
	q := tx.APIKey.Create().SetConsumerID(consumerID).SetName(name).SetHash(h[:]).
		SetPrefix(k.DisplayPrefix()).SetCreatedAt(s.now())
	if scopes != nil {
		q.SetScopes(scopes)
	}
	if sources != nil {
		q.SetSourceCidrs(sources)
	}
	if from == nil && o.ExpiresAt != nil {
		q.SetExpiresAt(o.ExpiresAt.UTC())
	}
	if from != nil {
		q.SetRotatedFromID(from.ID)
		if from.ExpiresAt != nil { // the old key's own expiry, from before its grace was set
			q.SetExpiresAt(*from.ExpiresAt)
		}
	}
	row, err := q.Save(ctx)
	if err != nil {
		return IssuedKey{}, err
	}
	info := s.keyInfo(row)
	action := "key.create"
	if from != nil {
		action = "key.rotate"
	}
	if err := s.audit(ctx, tx, a, action, consumerID, fmt.Sprintf("key %d", row.ID), "", nil, info); err != nil {
		return IssuedKey{}, err
	}
	return IssuedKey{KeyInfo: info, Key: k.String()}, nil
}

// AlreadyRotatedError is the error of rotating a key that already has a successor: a key is rotated
// once, and its successor is the key to rotate next. The old key keeps working until Until unless
// its grace is ended (EndGrace). It matches ErrConflict.
type AlreadyRotatedError struct {
	KeyID       int
	SuccessorID int
	Until       time.Time // when the old key stops working (zero if unknown)
}

func (e *AlreadyRotatedError) Error() string {
	msg := fmt.Sprintf("%s: key %d was already rotated: its successor is key %d", ErrConflict, e.KeyID, e.SuccessorID)
	if !e.Until.IsZero() {
		msg += fmt.Sprintf(" and key %d works until %s", e.KeyID, e.Until.UTC().Format(time.RFC3339))
	}
	return msg + fmt.Sprintf("; rotate key %d instead, or end key %d's grace", e.SuccessorID, e.KeyID)
}

// Is makes errors.Is(err, ErrConflict) hold.
func (e *AlreadyRotatedError) Is(target error) bool { return target == ErrConflict }

// RotateKey issues a successor of the key, with the same name. The old key keeps working for grace
// (default 24h when negative, at most 7 days; 0 ends it at once). A key is rotated once: a key that
// already has a successor is refused, also when two rotations race. Errors: ErrNotFound,
// ErrInvalid (grace out of range, key revoked or expired), *AlreadyRotatedError (matches ErrConflict).
func (s *Service) RotateKey(ctx context.Context, a Actor, keyID int, grace time.Duration) (IssuedKey, KeyInfo, error) {
	if grace < 0 {
		grace = DefaultRotationGrace
	}
	if grace > MaxRotationGrace {
		return IssuedKey{}, KeyInfo{}, fmt.Errorf("rotate key %d: %w: grace is at most 7 days", keyID, ErrInvalid)
	}
	var issued IssuedKey
	var old KeyInfo
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		k, err := s.ownKey(ctx, tx.Client(), a, keyID)
		if err != nil {
			return err
		}
		if st := s.status(k); st == KeyRevoked || st == KeyExpired {
			return fmt.Errorf("%w: key is %s", ErrInvalid, st)
		}
		if err := s.notRotated(ctx, tx, k); err != nil {
			return err
		}
		// The grace starts only on a key without an end, guarded in the update itself: of two
		// rotations racing past the check above, the second updates nothing (PostgreSQL rechecks
		// the condition on the row the first changed; SQLite lets one writer through).
		// A key with an expiry of its own keeps it when that comes first, and its successor
		// inherits it (issue gets the key as read before this update).
		end := s.now().Add(grace)
		same := apikey.ExpiresAtIsNil()
		if k.ExpiresAt != nil {
			same = apikey.ExpiresAtEQ(*k.ExpiresAt)
			if k.ExpiresAt.Before(end) {
				end = *k.ExpiresAt
			}
		}
		n, err := tx.APIKey.Update().Where(apikey.ID(k.ID), same, apikey.RevokedAtIsNil()).
			SetExpiresAt(end).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			if err := s.notRotated(ctx, tx, k); err != nil {
				return err
			}
			return fmt.Errorf("%w: key %d changed while it was being rotated", ErrConflict, k.ID)
		}
		read := k
		if k, err = tx.APIKey.Get(ctx, k.ID); err != nil {
			return err
		}
		old = s.keyInfo(k)
		issued, err = s.issue(ctx, tx, a, k.ConsumerID, k.Name, read, KeyOptions{})
		if err == nil {
			old.ReplacedByID = &issued.ID
		}
		return err
	})
	if err != nil {
		return IssuedKey{}, KeyInfo{}, fmt.Errorf("rotate key %d: %w", keyID, err)
	}
	return issued, old, nil
}

// notRotated returns an *AlreadyRotatedError when k has a successor.
func (s *Service) notRotated(ctx context.Context, tx *ent.Tx, k *ent.APIKey) error {
	next, err := tx.APIKey.Query().Where(apikey.RotatedFromID(k.ID)).Order(ent.Asc(apikey.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	e := &AlreadyRotatedError{KeyID: k.ID, SuccessorID: next.ID}
	if k.ExpiresAt != nil {
		e.Until = *k.ExpiresAt
	}
	return e
}

// EndGrace ends a rotated key's grace at once: the old key stops working now instead of at the
// end of the grace chosen when it was rotated. The change is audited as key.end_grace. Errors:
// ErrNotFound, ErrInvalid (the key is in no grace: never rotated, expired or revoked).
func (s *Service) EndGrace(ctx context.Context, a Actor, keyID int) (KeyInfo, error) {
	var out KeyInfo
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		k, err := s.ownKey(ctx, tx.Client(), a, keyID)
		if err != nil {
			return err
		}
		if st := s.status(k); st != KeyExpiring {
			return fmt.Errorf("%w: key is %s, not in a rotation grace", ErrInvalid, st)
		}
		if n, err := tx.APIKey.Query().Where(apikey.RotatedFromID(k.ID)).Count(ctx); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("%w: key was never rotated, so it is in no grace (it expires on its own)", ErrInvalid)
		}
		before := s.keyInfo(k)
		if k, err = tx.APIKey.UpdateOne(k).SetExpiresAt(s.now()).Save(ctx); err != nil {
			return err
		}
		out = s.keyInfo(k)
		return s.audit(ctx, tx, a, "key.end_grace", k.ConsumerID, fmt.Sprintf("key %d", k.ID), "", before, out)
	})
	if err != nil {
		return KeyInfo{}, fmt.Errorf("end grace of key %d: %w", keyID, err)
	}
	return out, nil
}

// RevokeKey revokes a key at once. Revoking a revoked key changes nothing. Errors: ErrNotFound.
func (s *Service) RevokeKey(ctx context.Context, a Actor, keyID int) (KeyInfo, error) {
	var out KeyInfo
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		k, err := s.ownKey(ctx, tx.Client(), a, keyID)
		if err != nil {
			return err
		}
		if k.RevokedAt != nil {
			out = s.keyInfo(k)
			return nil
		}
		before := s.keyInfo(k)
		if k, err = tx.APIKey.UpdateOne(k).SetRevokedAt(s.now()).Save(ctx); err != nil {
			return err
		}
		out = s.keyInfo(k)
		return s.audit(ctx, tx, a, "key.revoke", k.ConsumerID, fmt.Sprintf("key %d", k.ID), "", before, out)
	})
	if err != nil {
		return KeyInfo{}, fmt.Errorf("revoke key %d: %w", keyID, err)
	}
	return out, nil
}

// RenameKey renames a key. Errors: ErrNotFound, ErrInvalid.
func (s *Service) RenameKey(ctx context.Context, a Actor, keyID int, name string) (KeyInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 200 {
		return KeyInfo{}, fmt.Errorf("rename key %d: %w: key name must be 1 to 200 characters", keyID, ErrInvalid)
	}
	var out KeyInfo
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		k, err := s.ownKey(ctx, tx.Client(), a, keyID)
		if err != nil {
			return err
		}
		before := s.keyInfo(k)
		if k, err = tx.APIKey.UpdateOne(k).SetName(name).Save(ctx); err != nil {
			return err
		}
		out = s.keyInfo(k)
		return s.audit(ctx, tx, a, "key.rename", k.ConsumerID, fmt.Sprintf("key %d", k.ID), "", before, out)
	})
	if err != nil {
		return KeyInfo{}, fmt.Errorf("rename key %d: %w", keyID, err)
	}
	return out, nil
}

// ListKeys returns the consumer's keys, newest first.
func (s *Service) ListKeys(ctx context.Context, a Actor, consumerID int) ([]KeyInfo, error) {
	if a.ConsumerID != 0 && a.ConsumerID != consumerID {
		return nil, fmt.Errorf("list keys: consumer %d: %w", consumerID, ErrNotFound)
	}
	if _, err := s.db.Consumer.Get(ctx, consumerID); err != nil {
		return nil, fmt.Errorf("list keys: %w", notFound(err, "consumer", consumerID))
	}
	rows, err := s.db.APIKey.Query().Where(apikey.ConsumerID(consumerID)).Order(ent.Desc(apikey.FieldID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	out := make([]KeyInfo, len(rows))
	byID := make(map[int]int, len(rows))
	for i, r := range rows {
		out[i] = s.keyInfo(r)
		byID[r.ID] = i
	}
	for _, r := range rows {
		if r.RotatedFromID == nil {
			continue
		}
		if i, ok := byID[*r.RotatedFromID]; ok && out[i].ReplacedByID == nil {
			out[i].ReplacedByID = &r.ID
		}
	}
	return out, nil
}

// LookupKey finds a key by hash for the Verifier (a KeyLookup).
func (s *Service) LookupKey(ctx context.Context, hash [32]byte) (KeyRecord, error) {
	k, err := s.db.APIKey.Query().Where(apikey.Hash(hash[:])).WithConsumer().Only(ctx)
	if ent.IsNotFound(err) {
		return KeyRecord{}, ErrUnknownKey
	}
	if err != nil {
		return KeyRecord{}, fmt.Errorf("look up key: %w", err)
	}
	c := k.Edges.Consumer
	rec := KeyRecord{KeyID: k.ID, ConsumerID: k.ConsumerID, AccessEnabled: c.AccessEnabled,
		Limit: metering.Limit{RatePerMinute: c.RatePerMinute, Burst: c.Burst}}
	if k.ExpiresAt != nil {
		rec.ExpiresAt = *k.ExpiresAt
	}
	if k.RevokedAt != nil {
		rec.RevokedAt = *k.RevokedAt
	}
	if rec.Restriction, err = restrictionOf(k); err != nil {
		return KeyRecord{}, fmt.Errorf("look up key: %w", err)
	}
	return rec, nil
}

// ownKey loads a key the actor may touch: ErrNotFound for another consumer's key.
func (s *Service) ownKey(ctx context.Context, db *ent.Client, a Actor, keyID int) (*ent.APIKey, error) {
	q := db.APIKey.Query().Where(apikey.ID(keyID))
	if a.ConsumerID != 0 {
		q.Where(apikey.ConsumerID(a.ConsumerID))
	}
	k, err := q.Only(ctx)
	return k, notFound(err, "key", keyID)
}

func (s *Service) status(k *ent.APIKey) string {
	switch {
	case k.RevokedAt != nil:
		return KeyRevoked
	case k.ExpiresAt != nil && !s.now().Before(*k.ExpiresAt):
		return KeyExpired
	case k.ExpiresAt != nil:
		return KeyExpiring
	default:
		return KeyActive
	}
}

func (s *Service) keyInfo(k *ent.APIKey) KeyInfo {
	return KeyInfo{
		ID: k.ID, ConsumerID: k.ConsumerID, Name: k.Name, Prefix: k.Prefix, Status: s.status(k),
		CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, ExpiresAt: k.ExpiresAt, RevokedAt: k.RevokedAt,
		RotatedFromID: k.RotatedFromID, Scopes: k.Scopes, SourceCIDRs: k.SourceCidrs,
	}
}
