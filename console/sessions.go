package console

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"slices"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consolesession"
)

// sessionStore keeps scs sessions in the service's database (SQLite or PostgreSQL) through ent.
type sessionStore struct {
	db  *ent.Client
	now func() time.Time
}

var _ scs.CtxStore = (*sessionStore)(nil)

// FindCtx returns the session data of an unexpired token.
func (s *sessionStore) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	row, err := s.db.ConsoleSession.Query().
		Where(consolesession.ID(token), consolesession.ExpiryGT(s.now())).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return row.Data, true, nil
}

// CommitCtx stores or replaces a session. The sessions list's columns come from the session data
// itself, decoded with scs's codec: the signed-in user (userKey), the user agent and address put
// at sign-in (agentKey, ipKey). So the store needs nothing from the request, every commit keeps
// them right (sign-in, sign-out, a renewed token), and last_seen_at is the last commit: scs commits
// on every request, because the idle timeout is renewed each time. created_at is set once.
//
// A session ended from elsewhere (endOthers, endOne) stays as an expired row until the sweep: a
// request of that session still in flight then commits into nothing instead of bringing it back.
func (s *sessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	now := s.now()
	var userID *int
	var ua, ip string
	if _, values, err := (scs.GobCodec{}).Decode(data); err == nil {
		if id, ok := values[userKey].(int); ok && id > 0 {
			userID = &id
		}
		ua, _ = values[agentKey].(string)
		ip, _ = values[ipKey].(string)
		ua, ip = truncate(ua, 300), truncate(ip, 64)
	}
	up := s.db.ConsoleSession.Update().Where(consolesession.ID(token), consolesession.ExpiryGT(now)).
		SetData(data).SetExpiry(expiry).SetLastSeenAt(now).SetUserAgent(ua).SetIP(ip)
	if userID != nil {
		up.SetUserID(*userID)
	} else {
		up.ClearUserID()
	}
	n, err := up.Save(ctx)
	if err != nil || n == 1 {
		return err
	}
	ended, err := s.db.ConsoleSession.Query().Where(consolesession.ID(token)).Exist(ctx)
	if err != nil || ended {
		return err
	}
	return s.db.ConsoleSession.Create().SetID(token).SetData(data).SetExpiry(expiry).
		SetCreatedAt(now).SetLastSeenAt(now).SetUserAgent(ua).SetIP(ip).SetNillableUserID(userID).Exec(ctx)
}

// sessionInfo is one row of a user's sessions list.
type sessionInfo struct {
	Handle    string // names the session in forms; not its token nor the token's hash
	CreatedAt time.Time
	LastSeen  time.Time
	Expiry    time.Time
	UserAgent string
	IP        string
	Current   bool
}

// handle derives a session's public name from its stored id (already a hash of the token).
func handle(id string) string {
	h := sha256.Sum256([]byte("session-handle:" + id))
	return base64.RawURLEncoding.EncodeToString(h[:12])
}

// storedID is the id the store keeps for a session token (scs's HashTokenInStore).
func storedID(token string) string {
	h := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(h[:])
}

// forUser lists a user's live sessions, this one first, then by last activity; current is the
// stored id of the asking one.
func (s *sessionStore) forUser(ctx context.Context, userID int, current string) ([]sessionInfo, error) {
	rows, err := s.db.ConsoleSession.Query().Where(consolesession.UserID(userID), consolesession.ExpiryGT(s.now())).
		Order(ent.Desc(consolesession.FieldLastSeenAt)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]sessionInfo, len(rows))
	for i, r := range rows {
		out[i] = sessionInfo{Handle: handle(r.ID), CreatedAt: derefTime(r.CreatedAt), LastSeen: derefTime(r.LastSeenAt),
			Expiry: r.Expiry, UserAgent: r.UserAgent, IP: r.IP, Current: r.ID == current}
	}
	// This session first, then the others by last activity.
	slices.SortStableFunc(out, func(a, b sessionInfo) int {
		switch {
		case a.Current == b.Current:
			return 0
		case a.Current:
			return -1
		}
		return 1
	})
	return out, nil
}

// endOthers ends every session of a user but keep (a stored id; "" ends them all) and returns
// how many it ended. See CommitCtx for why the rows expire instead of going.
func (s *sessionStore) endOthers(ctx context.Context, userID int, keep string) (int, error) {
	now := s.now()
	return s.db.ConsoleSession.Update().Where(consolesession.UserID(userID), consolesession.IDNEQ(keep),
		consolesession.ExpiryGT(now)).SetExpiry(now.Add(-time.Second)).Save(ctx)
}

// endOne ends the live session of a user with the handle; false when there is none.
func (s *sessionStore) endOne(ctx context.Context, userID int, h string) (bool, error) {
	now := s.now()
	ids, err := s.db.ConsoleSession.Query().Where(consolesession.UserID(userID), consolesession.ExpiryGT(now)).
		Select(consolesession.FieldID).Strings(ctx)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if subtle.ConstantTimeCompare([]byte(handle(id)), []byte(h)) == 1 {
			n, err := s.db.ConsoleSession.Update().Where(consolesession.ID(id), consolesession.UserID(userID)).
				SetExpiry(now.Add(-time.Second)).Save(ctx)
			return n == 1, err
		}
	}
	return false, nil
}

func derefTime(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// DeleteCtx removes a session.
func (s *sessionStore) DeleteCtx(ctx context.Context, token string) error {
	_, err := s.db.ConsoleSession.Delete().Where(consolesession.ID(token)).Exec(ctx)
	return err
}

// sweep deletes expired sessions.
func (s *sessionStore) sweep(ctx context.Context) (int, error) {
	return s.db.ConsoleSession.Delete().Where(consolesession.ExpiryLTE(s.now())).Exec(ctx)
}

// Find, Commit and Delete satisfy scs.Store; scs calls the Ctx variants.
func (s *sessionStore) Find(token string) ([]byte, bool, error) {
	return s.FindCtx(context.Background(), token)
}

// Commit implements scs.Store.
func (s *sessionStore) Commit(token string, data []byte, expiry time.Time) error {
	return s.CommitCtx(context.Background(), token, data, expiry)
}

// Delete implements scs.Store.
func (s *sessionStore) Delete(token string) error {
	return s.DeleteCtx(context.Background(), token)
}
