package access

import (
	"context"
	"crypto/subtle"
	"encoding/base32"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consoleuser"
)

// TOTP parameters: RFC 6238's defaults every authenticator app reads (SHA-1, 6 digits, 30 s),
// and one step of clock skew either side.
const (
	totpPeriod = 30
	totpSkew   = 1
	// TOTPIssuer is the issuer shown in authenticator apps.
	TOTPIssuer = "Partner console"
)

// totpEncoding is how pquerna/otp writes secrets: base32 without padding.
var totpEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// ErrBadCode is the error of a wrong, reused or expired TOTP or recovery code.
var ErrBadCode = errors.New("wrong or already used code")

// TOTPEnrolment is a new, not yet confirmed TOTP secret: Secret in base32 for typing, URL the
// otpauth:// URL a QR code carries.
type TOTPEnrolment struct {
	Secret string
	URL    string
	key    *otp.Key
}

// Key is the enrolment's key, for its QR image (otp.Key.Image).
func (e TOTPEnrolment) Key() *otp.Key { return e.key }

// StartTOTP gives a user without two-factor sign-in a new TOTP secret, stored unconfirmed until
// ConfirmTOTP, sealed with the service's SecretBox; it replaces an earlier unconfirmed one.
// Errors: ErrNotFound, ErrInvalid (two-factor sign-in is on already), ErrNoSecretKey.
func (s *Service) StartTOTP(ctx context.Context, userID int) (TOTPEnrolment, error) {
	u, err := s.db.ConsoleUser.Get(ctx, userID)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("start totp: %w", notFound(err, "user", userID))
	}
	if u.TotpEnabledAt != nil {
		return TOTPEnrolment{}, fmt.Errorf("start totp: %w: two-factor sign-in is on already", ErrInvalid)
	}
	if s.box == nil {
		return TOTPEnrolment{}, fmt.Errorf("start totp: %w", ErrNoSecretKey)
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: TOTPIssuer, AccountName: u.Email, Period: totpPeriod})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("start totp: %w", err)
	}
	if err := s.db.ConsoleUser.UpdateOneID(userID).Where(consoleuser.TotpEnabledAtIsNil()).
		SetTotpSecret(s.box.seal(key.Secret(), totpBinding(userID))).Exec(ctx); err != nil {
		return TOTPEnrolment{}, fmt.Errorf("start totp: %w", notFound(err, "user", userID))
	}
	return TOTPEnrolment{Secret: key.Secret(), URL: key.URL(), key: key}, nil
}

// PendingTOTP returns the unconfirmed secret StartTOTP stored, to show it again (a reload of the
// enrolment page must not change the secret the user may have scanned already). Errors:
// ErrNotFound (no unconfirmed secret), ErrNoSecretKey, ErrSecretUnreadable (sealed with another
// key: start again).
func (s *Service) PendingTOTP(ctx context.Context, userID int) (TOTPEnrolment, error) {
	u, err := s.db.ConsoleUser.Get(ctx, userID)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("pending totp: %w", notFound(err, "user", userID))
	}
	if u.TotpEnabledAt != nil || u.TotpSecret == "" {
		return TOTPEnrolment{}, fmt.Errorf("pending totp: %w", ErrNotFound)
	}
	secret, err := s.totpSecret(u)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("pending totp: user %d: %w", userID, err)
	}
	raw, err := totpEncoding.DecodeString(secret)
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("pending totp: user %d: malformed secret", userID) // never the secret itself
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: TOTPIssuer, AccountName: u.Email, Period: totpPeriod, Secret: raw})
	if err != nil {
		return TOTPEnrolment{}, fmt.Errorf("pending totp: %w", err)
	}
	return TOTPEnrolment{Secret: key.Secret(), URL: key.URL(), key: key}, nil
}

// ConfirmTOTP switches two-factor sign-in on with the unconfirmed secret when code is its current
// code, and returns the user's first recovery codes (shown once). Errors: ErrBadCode, ErrInvalid
// (nothing to confirm), ErrNotFound, ErrNoSecretKey, ErrSecretUnreadable.
func (s *Service) ConfirmTOTP(ctx context.Context, userID int, code string) ([]string, error) {
	var codes []string
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := tx.ConsoleUser.Get(ctx, userID)
		if err != nil {
			return notFound(err, "user", userID)
		}
		if u.TotpEnabledAt != nil || u.TotpSecret == "" {
			return fmt.Errorf("%w: start two-factor sign-in first", ErrInvalid)
		}
		secret, err := s.totpSecret(u)
		if err != nil {
			return err
		}
		step, ok := matchTOTP(secret, code, s.now(), u.TotpLastStep)
		if !ok {
			return ErrBadCode
		}
		if err := tx.ConsoleUser.UpdateOneID(u.ID).SetTotpEnabledAt(s.now()).SetTotpLastStep(step).Exec(ctx); err != nil {
			return err
		}
		if codes, err = s.newRecoveryCodes(ctx, tx, u.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, selfActor(u), "user.2fa_on", deref(u.ConsumerID, 0), u.Email, "", nil,
			map[string]any{"userId": u.ID, "email": u.Email})
	})
	if err != nil {
		return nil, fmt.Errorf("confirm totp: %w", err)
	}
	return codes, nil
}

// DisableTOTP switches two-factor sign-in off and deletes the recovery codes, when proof is the
// user's current TOTP code or password. Errors: ErrBadCode (wrong proof), ErrInvalid (it is off),
// ErrNotFound.
func (s *Service) DisableTOTP(ctx context.Context, userID int, proof string) error {
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := s.proven(ctx, tx, userID, proof)
		if err != nil {
			return err
		}
		if err := tx.ConsoleUser.UpdateOneID(u.ID).ClearTotpEnabledAt().ClearTotpSecret().Exec(ctx); err != nil {
			return err
		}
		if err := deleteRecoveryCodes(ctx, tx, u.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, selfActor(u), "user.2fa_off", deref(u.ConsumerID, 0), u.Email, "", nil,
			map[string]any{"userId": u.ID, "email": u.Email})
	})
	if err != nil {
		return fmt.Errorf("disable totp: %w", err)
	}
	return nil
}

// RegenerateRecoveryCodes replaces the user's recovery codes with 10 new ones (shown once), when
// proof is the current TOTP code or the password. Errors as DisableTOTP.
func (s *Service) RegenerateRecoveryCodes(ctx context.Context, userID int, proof string) ([]string, error) {
	var codes []string
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := s.proven(ctx, tx, userID, proof)
		if err != nil {
			return err
		}
		if codes, err = s.newRecoveryCodes(ctx, tx, u.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, selfActor(u), "user.recovery_codes", deref(u.ConsumerID, 0), u.Email, "", nil,
			map[string]any{"userId": u.ID, "email": u.Email})
	})
	if err != nil {
		return nil, fmt.Errorf("regenerate recovery codes: %w", err)
	}
	return codes, nil
}

// SignInCode completes the sign-in of a two-factor user whose password SignIn accepted: code is
// a current TOTP code (each is accepted once) or an unused recovery code (used up by it). A wrong
// code counts as a failed sign-in in the throttle. Errors: ErrBadCode, *Throttled,
// ErrThrottleUnavailable, ErrNotFound (the user is gone), and for a TOTP code ErrNoSecretKey or
// ErrSecretUnreadable (the seed cannot be opened: a recovery code still works).
func (s *Service) SignInCode(ctx context.Context, userID int, code string, source netip.Addr) (User, error) {
	u, err := s.db.ConsoleUser.Get(ctx, userID)
	if err != nil {
		return User{}, fmt.Errorf("sign in: %w", notFound(err, "user", userID))
	}
	attempt, err := s.throttle.Begin(u.Email, source)
	if err != nil {
		return User{}, fmt.Errorf("sign in: %w", err)
	}
	var out User
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := tx.ConsoleUser.Get(ctx, userID)
		if err != nil {
			return notFound(err, "user", userID)
		}
		if u.TotpEnabledAt == nil {
			return ErrBadCode
		}
		if err := s.useCode(ctx, tx, u, code); err != nil {
			return err
		}
		nu, err := tx.ConsoleUser.UpdateOneID(u.ID).SetLastSignInAt(s.now()).Save(ctx)
		if err != nil {
			return err
		}
		out = toUser(nu)
		return nil
	})
	switch {
	case errors.Is(err, ErrBadCode):
		return User{}, fmt.Errorf("sign in: %w", err) // counted as a failure
	case err != nil:
		attempt.Abandon()
		return User{}, fmt.Errorf("sign in: %w", err)
	}
	attempt.Succeeded()
	return out, nil
}

// useCode accepts a TOTP code (a step later than the last accepted one, recorded so that it is
// not accepted again) or an unused recovery code (marked used) of u inside tx, else ErrBadCode.
func (s *Service) useCode(ctx context.Context, tx *ent.Tx, u *ent.ConsoleUser, code string) error {
	if isTOTPCode(code) {
		secret, err := s.totpSecret(u)
		if err != nil {
			return err
		}
		step, ok := matchTOTP(secret, code, s.now(), u.TotpLastStep)
		if !ok {
			return ErrBadCode
		}
		// Conditional, so two requests with the same code cannot both pass.
		n, err := tx.ConsoleUser.Update().Where(consoleuser.ID(u.ID), consoleuser.TotpLastStepLT(step)).
			SetTotpLastStep(step).Save(ctx)
		if err != nil {
			return err
		}
		if n != 1 {
			return ErrBadCode
		}
		return nil
	}
	ok, err := s.useRecoveryCode(ctx, tx, u.ID, code)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBadCode
	}
	return s.audit(ctx, tx, selfActor(u), "user.recovery_code_used", deref(u.ConsumerID, 0), u.Email, "", nil,
		map[string]any{"userId": u.ID, "email": u.Email})
}

// proven loads a user with two-factor sign-in on whose proof is the current TOTP code or the password.
func (s *Service) proven(ctx context.Context, tx *ent.Tx, userID int, proof string) (*ent.ConsoleUser, error) {
	u, err := tx.ConsoleUser.Get(ctx, userID)
	if err != nil {
		return nil, notFound(err, "user", userID)
	}
	if u.TotpEnabledAt == nil {
		return nil, fmt.Errorf("%w: two-factor sign-in is off", ErrInvalid)
	}
	proof = strings.TrimSpace(proof)
	if isTOTPCode(proof) {
		return u, s.useCode(ctx, tx, u, proof)
	}
	if u.PasswordHash == "" || len(proof) > MaxPasswordLen {
		return nil, ErrBadCode
	}
	ok, err := CheckPassword(u.PasswordHash, proof)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBadCode
	}
	return u, nil
}

// totpBinding names where a user's sealed TOTP seed is stored: it opens only there.
func totpBinding(userID int) string { return "console_users.totp_secret:" + strconv.Itoa(userID) }

// totpSecret opens u's sealed TOTP seed. Errors: ErrNoSecretKey, ErrSecretUnreadable.
func (s *Service) totpSecret(u *ent.ConsoleUser) (string, error) {
	if s.box == nil {
		return "", ErrNoSecretKey
	}
	return s.box.open(u.TotpSecret, totpBinding(u.ID))
}

// matchTOTP finds the time step within the skew whose code is code and that comes after last.
func matchTOTP(secret, code string, now time.Time, last int64) (int64, bool) {
	code = strings.TrimSpace(code)
	if secret == "" || !isTOTPCode(code) {
		return 0, false
	}
	cur := now.Unix() / totpPeriod
	opts := totp.ValidateOpts{Period: totpPeriod, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}
	for step := cur - totpSkew; step <= cur+totpSkew; step++ {
		want, err := totp.GenerateCodeCustom(secret, time.Unix(step*totpPeriod, 0), opts)
		if err != nil {
			return 0, false
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 && step > last {
			return step, true
		}
	}
	return 0, false
}

// isTOTPCode reports whether s looks like a TOTP code: six digits.
func isTOTPCode(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) != 6 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// selfActor is a user acting on their own account, as the audit log names them.
func selfActor(u *ent.ConsoleUser) Actor {
	if u.Role == consoleuser.RoleOperator {
		return Operator("operator:" + u.Email)
	}
	return Actor{Name: "user:" + u.Email, ConsumerID: deref(u.ConsumerID, 0)}
}
