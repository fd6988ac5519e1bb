package console

import (
	"context"
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

// CommitCtx stores or replaces a session.
func (s *sessionStore) CommitCtx(ctx context.Context, token string, data []byte, expiry time.Time) error {
	return s.db.ConsoleSession.Create().SetID(token).SetData(data).SetExpiry(expiry).
		OnConflictColumns(consolesession.FieldID).UpdateNewValues().Exec(ctx)
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
