package access

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"strings"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/recoverycode"
)

// RecoveryCodeCount is how many recovery codes a user gets at a time.
const RecoveryCodeCount = 10

// recoveryEncoding writes a recovery code's 10 random bytes as 16 lower-case base32 characters
// without look-alike ambiguity between cases.
var recoveryEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newRecoveryCodes replaces a user's recovery codes with RecoveryCodeCount new ones inside tx and
// returns them formatted for people (xxxx-xxxx-xxxx-xxxx); only their SHA-256 is stored.
func (s *Service) newRecoveryCodes(ctx context.Context, tx *ent.Tx, userID int) ([]string, error) {
	if err := deleteRecoveryCodes(ctx, tx, userID); err != nil {
		return nil, err
	}
	codes := make([]string, RecoveryCodeCount)
	rows := make([]*ent.RecoveryCodeCreate, RecoveryCodeCount)
	now := s.now()
	for i := range codes {
		raw := make([]byte, 10)
		if _, err := rand.Read(raw); err != nil {
			return nil, err
		}
		c := recoveryEncoding.EncodeToString(raw)
		codes[i] = c[0:4] + "-" + c[4:8] + "-" + c[8:12] + "-" + c[12:16]
		h := recoveryHash(c)
		rows[i] = tx.RecoveryCode.Create().SetUserID(userID).SetCodeHash(h[:]).SetCreatedAt(now)
	}
	if err := tx.RecoveryCode.CreateBulk(rows...).Exec(ctx); err != nil {
		return nil, err
	}
	return codes, nil
}

// useRecoveryCode marks an unused recovery code of the user used; false when there is none.
func (s *Service) useRecoveryCode(ctx context.Context, tx *ent.Tx, userID int, code string) (bool, error) {
	c := normalizeRecoveryCode(code)
	if len(c) != 16 {
		return false, nil
	}
	h := recoveryHash(c)
	n, err := tx.RecoveryCode.Update().Where(recoverycode.UserID(userID), recoverycode.CodeHash(h[:]),
		recoverycode.UsedAtIsNil()).SetUsedAt(s.now()).Save(ctx)
	return n == 1, err
}

// RecoveryCodesLeft returns how many unused recovery codes a user has.
func (s *Service) RecoveryCodesLeft(ctx context.Context, userID int) (int, error) {
	return s.db.RecoveryCode.Query().Where(recoverycode.UserID(userID), recoverycode.UsedAtIsNil()).Count(ctx)
}

func deleteRecoveryCodes(ctx context.Context, tx *ent.Tx, userID int) error {
	_, err := tx.RecoveryCode.Delete().Where(recoverycode.UserID(userID)).Exec(ctx)
	return err
}

// normalizeRecoveryCode drops spaces and dashes and lower-cases, as people type codes.
func normalizeRecoveryCode(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			return -1
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, code)
}

func recoveryHash(normalized string) [32]byte { return sha256.Sum256([]byte(normalized)) }
