package access_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/ent/consoleuser"
	"github.com/partner-platform/partnerd/ent/recoverycode"
	"github.com/partner-platform/partnerd/store"
	"github.com/partner-platform/partnerd/store/storetest"
)

// code is the TOTP code of secret at the env's clock, or fails the test.
func (e *svcEnv) code(secret string) string {
	e.t.Helper()
	c, err := totp.GenerateCode(secret, e.clk.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// enrol switches two-factor sign-in on for a user and returns the secret and recovery codes.
func (e *svcEnv) enrol(userID int) (string, []string) {
	e.t.Helper()
	en, err := e.svc.StartTOTP(e.t.Context(), userID)
	if err != nil {
		e.t.Fatalf("StartTOTP: %v", err)
	}
	codes, err := e.svc.ConfirmTOTP(e.t.Context(), userID, e.code(en.Secret))
	if err != nil {
		e.t.Fatalf("ConfirmTOTP: %v", err)
	}
	return en.Secret, codes
}

func TestTOTPEnrolment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		op := e.operator("root@example.com", goodPassword)

		en, err := e.svc.StartTOTP(ctx, op.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(en.URL, "otpauth://totp/") || !strings.Contains(en.URL, "secret="+en.Secret) || en.Key() == nil {
			t.Fatalf("enrolment %+v", en)
		}
		again, err := e.svc.PendingTOTP(ctx, op.ID)
		if err != nil || again.Secret != en.Secret {
			t.Fatalf("PendingTOTP = %q, %v; want the same secret", again.Secret, err)
		}
		// Not on until confirmed: the password alone still signs in.
		if u, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcA); err != nil || u.TwoFactor || u.LastSignInAt == nil {
			t.Fatalf("SignIn before confirming: %+v, %v", u, err)
		}
		for _, bad := range []string{"", "12345", "abcdef", "0000000"} {
			e.noChange("confirm with "+bad, access.ErrBadCode, func() error { _, err := e.svc.ConfirmTOTP(ctx, op.ID, bad); return err })
		}
		var codes []string
		entry := e.oneAudit("user.2fa_on", func() (err error) {
			codes, err = e.svc.ConfirmTOTP(ctx, op.ID, e.code(en.Secret))
			return err
		})
		assertNoSecret(t, entry, en.Secret)
		if len(codes) != access.RecoveryCodeCount {
			t.Fatalf("%d recovery codes", len(codes))
		}
		seen := map[string]bool{}
		for _, c := range codes {
			if len(c) != 19 || seen[c] {
				t.Fatalf("recovery code %q (duplicate %v)", c, seen[c])
			}
			seen[c] = true
		}
		// Stored as SHA-256, never the code.
		rows, err := st.Client.RecoveryCode.Query().Where(recoverycode.UserID(op.ID)).All(ctx)
		if err != nil || len(rows) != access.RecoveryCodeCount {
			t.Fatalf("%d stored codes, %v", len(rows), err)
		}
		for _, r := range rows {
			if len(r.CodeHash) != 32 || strings.Contains(string(r.CodeHash), codes[0][:4]) {
				t.Fatalf("stored code hash %x", r.CodeHash)
			}
		}
		u, _ := e.svc.User(ctx, e.op, op.ID)
		if !u.TwoFactor {
			t.Fatal("TwoFactor is off after confirming")
		}
		if _, err := e.svc.StartTOTP(ctx, op.ID); !errors.Is(err, access.ErrInvalid) {
			t.Fatalf("StartTOTP when on: %v", err)
		}
		if _, err := e.svc.ConfirmTOTP(ctx, op.ID, e.code(en.Secret)); !errors.Is(err, access.ErrInvalid) {
			t.Fatalf("ConfirmTOTP when on: %v", err)
		}
	})
}

func TestTOTPSignIn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		op := e.operator("root@example.com", goodPassword)
		secret, codes := e.enrol(op.ID)
		e.clk.Add(time.Minute) // the enrolment's code step is behind us

		// The password is only the first step: nothing recorded yet.
		u, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcA)
		if err != nil || !u.TwoFactor || u.LastSignInAt != nil {
			t.Fatalf("password step = %+v, %v", u, err)
		}
		code := e.code(secret)
		if u, err = e.svc.SignInCode(ctx, op.ID, code, srcA); err != nil || u.LastSignInAt == nil || !u.LastSignInAt.Equal(e.clk.Now()) {
			t.Fatalf("SignInCode = %+v, %v", u, err)
		}
		// A code is accepted once, and so is any earlier step's code.
		if _, err := e.svc.SignInCode(ctx, op.ID, code, srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("same code again: %v", err)
		}
		prev, _ := totp.GenerateCode(secret, e.clk.Now().Add(-30*time.Second))
		if _, err := e.svc.SignInCode(ctx, op.ID, prev, srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("earlier step's code: %v", err)
		}
		// One step of skew is allowed ahead; two are not.
		e.clk.Add(2 * time.Minute)
		far, _ := totp.GenerateCode(secret, e.clk.Now().Add(90*time.Second))
		if _, err := e.svc.SignInCode(ctx, op.ID, far, srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("code 3 steps ahead: %v", err)
		}
		next, _ := totp.GenerateCode(secret, e.clk.Now().Add(30*time.Second))
		if _, err := e.svc.SignInCode(ctx, op.ID, next, srcA); err != nil {
			t.Fatalf("next step's code: %v", err)
		}

		// Recovery codes: once each, typed loosely.
		loose := strings.ToUpper(strings.ReplaceAll(codes[3], "-", " "))
		if _, err := e.svc.SignInCode(ctx, op.ID, loose, srcA); err != nil {
			t.Fatalf("recovery code: %v", err)
		}
		if _, err := e.svc.SignInCode(ctx, op.ID, codes[3], srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("used recovery code: %v", err)
		}
		if n, _ := e.svc.RecoveryCodesLeft(ctx, op.ID); n != access.RecoveryCodeCount-1 {
			t.Fatalf("%d codes left", n)
		}
		// Another user's recovery code is not this user's.
		other := e.operator("other@example.com", goodPassword)
		_, otherCodes := e.enrol(other.ID)
		if _, err := e.svc.SignInCode(ctx, op.ID, otherCodes[0], srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("another user's recovery code: %v", err)
		}

		// Regenerate: the old codes die. Proof by password.
		fresh, err := e.svc.RegenerateRecoveryCodes(ctx, op.ID, goodPassword)
		if err != nil || len(fresh) != access.RecoveryCodeCount {
			t.Fatalf("RegenerateRecoveryCodes: %d, %v", len(fresh), err)
		}
		if _, err := e.svc.SignInCode(ctx, op.ID, codes[5], srcA); !errors.Is(err, access.ErrBadCode) {
			t.Fatalf("old recovery code after regenerating: %v", err)
		}
		e.noChange("regenerate with a wrong password", access.ErrBadCode, func() error {
			_, err := e.svc.RegenerateRecoveryCodes(ctx, op.ID, otherPassword)
			return err
		})
		// Off with the current code; then the password alone signs in again.
		e.clk.Add(time.Minute)
		e.noChange("off with a wrong code", access.ErrBadCode, func() error { return e.svc.DisableTOTP(ctx, op.ID, "000000") })
		e.oneAudit("user.2fa_off", func() error { return e.svc.DisableTOTP(ctx, op.ID, e.code(secret)) })
		if u, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcA); err != nil || u.TwoFactor || u.LastSignInAt == nil {
			t.Fatalf("SignIn after off: %+v, %v", u, err)
		}
		if n, _ := st.Client.RecoveryCode.Query().Where(recoverycode.UserID(op.ID)).Count(ctx); n != 0 {
			t.Fatalf("%d recovery codes left after off", n)
		}
		if row, _ := st.Client.ConsoleUser.Query().Where(consoleuser.ID(op.ID)).Only(ctx); row.TotpSecret != "" {
			t.Fatal("TOTP secret kept after off")
		}
	})
}

func TestTOTPThrottle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		op := e.operator("root@example.com", goodPassword)
		secret, _ := e.enrol(op.ID)
		e.clk.Add(time.Minute)
		// The right password does not clear the wrong codes: they add up to the account's limit.
		for i := range access.SignInAccountLimit {
			if _, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcA); err != nil {
				t.Fatalf("password %d: %v", i, err)
			}
			if _, err := e.svc.SignInCode(ctx, op.ID, "000000", srcA); !errors.Is(err, access.ErrBadCode) {
				t.Fatalf("wrong code %d: %v", i, err)
			}
		}
		var th *access.Throttled
		if _, err := e.svc.SignInCode(ctx, op.ID, e.code(secret), srcB); !errors.As(err, &th) {
			t.Fatalf("right code after %d wrong ones: %v, want *Throttled", access.SignInAccountLimit, err)
		}
		if _, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcB); !errors.As(err, &th) {
			t.Fatalf("password after wrong codes: %v, want *Throttled", err)
		}
	})
}

func TestChangePassword(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		op := e.operator("root@example.com", goodPassword)
		e.noChange("wrong current", access.ErrBadCredentials, func() error {
			_, err := e.svc.ChangePassword(ctx, op.ID, otherPassword, "a brand new passphrase")
			return err
		})
		e.noChange("weak new", access.ErrWeakPassword, func() error {
			_, err := e.svc.ChangePassword(ctx, op.ID, goodPassword, "short")
			return err
		})
		var u access.User
		entry := e.oneAudit("user.password_change", func() (err error) {
			u, err = e.svc.ChangePassword(ctx, op.ID, goodPassword, otherPassword)
			return err
		})
		assertNoSecret(t, entry, goodPassword, otherPassword)
		if u.CredentialStamp == op.CredentialStamp || u.CredentialStamp == "" {
			t.Fatal("the credential stamp did not change")
		}
		if _, err := e.svc.SignIn(ctx, "root@example.com", otherPassword, srcA); err != nil {
			t.Fatalf("new password: %v", err)
		}
		if _, err := e.svc.SignIn(ctx, "root@example.com", goodPassword, srcA); !errors.Is(err, access.ErrBadCredentials) {
			t.Fatalf("old password: %v", err)
		}
	})
}

// TestTOTPSealed: a TOTP seed is stored sealed with the service's secret key, bound to its user.
// A service with another key, or none, cannot read it: a TOTP code is then refused with that
// reason (ErrSecretUnreadable, ErrNoSecretKey), not as a wrong code, setting up two-factor sign-in
// is refused without a key, and a recovery code still signs the user in.
func TestTOTPSealed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		e := newSvcEnv(t, st)
		ctx := t.Context()
		op := e.operator("root@example.com", goodPassword)
		other := e.operator("other@example.com", goodPassword)
		secret, codes := e.enrol(op.ID)
		e.clk.Add(time.Minute)

		row, err := st.Client.ConsoleUser.Get(ctx, op.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(row.TotpSecret, "v1.") || strings.Contains(row.TotpSecret, secret) {
			t.Fatalf("stored TOTP secret %q: want it sealed, never the seed %q", row.TotpSecret, secret)
		}
		// Bound to its user: moved to another user's row, it does not open there.
		if err := st.Client.ConsoleUser.UpdateOneID(other.ID).SetTotpSecret(row.TotpSecret).SetTotpEnabledAt(e.clk.Now()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SignInCode(ctx, other.ID, e.code(secret), srcA); !errors.Is(err, access.ErrSecretUnreadable) {
			t.Errorf("the seed moved to another user: SignInCode = %v, want ErrSecretUnreadable", err)
		}

		for _, tc := range []struct {
			name string
			svc  *access.Service
			want error
		}{
			{"another key", access.NewService(st.Client, access.WithServiceClock(e.clk.Now), access.WithSecretBox(newSecretBox(t))), access.ErrSecretUnreadable},
			{"no key", access.NewService(st.Client, access.WithServiceClock(e.clk.Now)), access.ErrNoSecretKey},
		} {
			if _, err := tc.svc.SignInCode(ctx, op.ID, e.code(secret), srcA); !errors.Is(err, tc.want) {
				t.Errorf("%s: SignInCode with a TOTP code = %v, want %v", tc.name, err, tc.want)
			}
			if err := tc.svc.DisableTOTP(ctx, op.ID, e.code(secret)); !errors.Is(err, tc.want) {
				t.Errorf("%s: DisableTOTP with a TOTP code = %v, want %v", tc.name, err, tc.want)
			}
		}
		noKey := access.NewService(st.Client, access.WithServiceClock(e.clk.Now))
		fresh := e.operator("fresh@example.com", goodPassword)
		if _, err := noKey.StartTOTP(ctx, fresh.ID); !errors.Is(err, access.ErrNoSecretKey) {
			t.Errorf("StartTOTP without a key = %v, want ErrNoSecretKey", err)
		}
		if u, err := noKey.SignInCode(ctx, op.ID, codes[0], srcA); err != nil || u.LastSignInAt == nil {
			t.Errorf("without a key, a recovery code: %+v, %v; want signed in", u, err)
		}

		for _, n := range []int{0, 16, access.SecretKeySize - 1, access.SecretKeySize + 1} {
			if _, err := access.NewSecretBox(make([]byte, n)); err == nil {
				t.Errorf("NewSecretBox with a %d-byte key: no error", n)
			}
		}
	})
}
