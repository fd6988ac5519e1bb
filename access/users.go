package access

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/mail"
	"net/netip"
	"strings"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consoleuser"
	"github.com/partner-platform/partnerd/ent/passwordtoken"
)

// Console user roles.
const (
	RoleOperator = "operator"
	RoleConsumer = "consumer"
)

// Set-password link lifetimes.
const (
	DefaultPasswordLinkTTL = 72 * time.Hour
	MaxPasswordLinkTTL     = 7 * 24 * time.Hour
)

// MaxEmailLen is the longest email address accepted (RFC 5321's path limit).
const MaxEmailLen = 254

// ErrBadCredentials is SignIn's answer for an unknown email, a wrong password and a user whose
// password is not set yet alike, so that the answer does not tell which emails exist.
var ErrBadCredentials = errors.New("bad credentials")

// User is a console user (never carries the password hash).
type User struct {
	ID           int        `json:"id"`
	Email        string     `json:"email"`
	Role         string     `json:"role"` // RoleOperator or RoleConsumer
	ConsumerID   int        `json:"consumerId,omitempty"`
	PasswordSet  bool       `json:"passwordSet"`
	CreatedAt    time.Time  `json:"createdAt"`
	LastSignInAt *time.Time `json:"lastSignInAt"`
	// TeamRole is a consumer's user's role in its team (TeamOwner, TeamDeveloper, TeamViewer); a
	// user from before team roles has none stored and is an owner. Empty for operators.
	TeamRole string `json:"teamRole,omitempty"`
	// InvitedBy names who invited the user (an actor name); empty for users from before invitations.
	InvitedBy string `json:"invitedBy,omitempty"`
	// TwoFactor reports whether the user signs in with a TOTP code after the password.
	TwoFactor bool `json:"twoFactor"`
	// CredentialStamp changes whenever the password does (every hash has a fresh salt): a console
	// session keeps the stamp it signed in with, so setting a new password ends every older session.
	// It is derived from the hash by SHA-256 and tells nothing about the password.
	CredentialStamp string `json:"-"`
}

// PasswordLink is a one-time set-password link. Token is 32 random bytes in unpadded base64url,
// available only when the link is issued; the store keeps only its SHA-256.
type PasswordLink struct {
	Token     string    `json:"-"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// tokenLen is the length of a PasswordLink token: 32 bytes in unpadded base64.
var tokenLen = base64.RawURLEncoding.EncodedLen(32)

// dummyHash is what SignIn checks a password against when there is no hash to check, so that an
// unknown email costs the same argon2id run as a known one. It has the current parameters and a
// key of zeros no password hashes to.
var dummyHash = fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
	base64.RawStdEncoding.EncodeToString(make([]byte, argonSaltLen)), base64.RawStdEncoding.EncodeToString(make([]byte, argonKeyLen)))

// WithSignInThrottle sets the throttle of failed sign-ins (default: NewThrottle with the
// default limits on the Service's clock; nil keeps it). In memory each replica counts its own; with a
// ThrottleStore in Redis (WithThrottleStore) all replicas share the counts; see Throttle.
func WithSignInThrottle(t *Throttle) ServiceOption {
	return func(s *Service) {
		if t != nil {
			s.throttle = t
		}
	}
}

// NormalizeEmail trims and lower-cases an email address and checks that it is one bare address
// (no display name, no angle brackets) of at most MaxEmailLen bytes. Errors: ErrInvalid.
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	if e == "" || len(e) > MaxEmailLen {
		return "", fmt.Errorf("%w: email must be 1 to %d characters", ErrInvalid, MaxEmailLen)
	}
	if a, err := mail.ParseAddress(e); err != nil || a.Name != "" || a.Address != e {
		return "", fmt.Errorf("%w: %q is not an email address", ErrInvalid, email)
	}
	return e, nil
}

// CreateOperator creates an operator console user with a password (operators only). Errors:
// ErrInvalid (bad email, or the actor is a consumer's user), ErrWeakPassword (an ErrInvalid),
// ErrConflict (email taken).
func (s *Service) CreateOperator(ctx context.Context, a Actor, email, password string) (User, error) {
	if a.ConsumerID != 0 {
		return User{}, fmt.Errorf("create operator: %w: operators only", ErrInvalid)
	}
	email, err := NormalizeEmail(email)
	if err != nil {
		return User{}, fmt.Errorf("create operator: %w", err)
	}
	hash, err := HashPassword(password)
	if err != nil {
		return User{}, fmt.Errorf("create operator: %w", err)
	}
	var out User
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := tx.ConsoleUser.Create().SetEmail(email).SetPasswordHash(hash).
			SetRole(consoleuser.RoleOperator).SetCreatedAt(s.now()).Save(ctx)
		if ent.IsConstraintError(err) {
			return fmt.Errorf("%w: a user with email %q exists", ErrConflict, email)
		}
		if err != nil {
			return err
		}
		out = toUser(u)
		return s.audit(ctx, tx, a, "user.create", 0, out.Email, "", nil, out)
	})
	if err != nil {
		return User{}, fmt.Errorf("create operator: %w", err)
	}
	return out, nil
}

// CreateConsumerUser creates a console user of a consumer, an owner of its team, without a
// password, and issues its first set-password link, valid for ttl (DefaultPasswordLinkTTL when
// ttl <= 0, at most MaxPasswordLinkTTL). Operators only; a team's owners invite with Invite.
// Errors: ErrNotFound (no such consumer, or another tenant's), ErrInvalid (bad email or ttl, or
// the actor is a consumer's user), ErrConflict (email taken).
func (s *Service) CreateConsumerUser(ctx context.Context, a Actor, consumerID int, email string, ttl time.Duration) (User, PasswordLink, error) {
	if a.ConsumerID != 0 && a.ConsumerID != consumerID {
		return User{}, PasswordLink{}, fmt.Errorf("create user: consumer %d: %w", consumerID, ErrNotFound)
	}
	if a.ConsumerID != 0 {
		return User{}, PasswordLink{}, fmt.Errorf("create user: %w: operators only", ErrInvalid)
	}
	u, link, err := s.addMember(ctx, a, consumerID, email, consoleuser.TeamRoleOwner, ttl, "user.create")
	if err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("create user: %w", err)
	}
	return u, link, nil
}

// NewPasswordLink issues a new set-password link for a user, valid for ttl (as in
// CreateConsumerUser), and invalidates the user's earlier unused links. Operators only; it also
// serves to reset a forgotten password. Errors: ErrNotFound (no such user, or another tenant's),
// ErrInvalid (bad ttl, or the actor is a consumer's user).
func (s *Service) NewPasswordLink(ctx context.Context, a Actor, userID int, ttl time.Duration) (PasswordLink, error) {
	ttl, err := linkTTL(ttl)
	if err != nil {
		return PasswordLink{}, fmt.Errorf("new password link: %w", err)
	}
	var link PasswordLink
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := s.ownUser(ctx, tx.Client(), a, userID)
		if err != nil {
			return err
		}
		if a.ConsumerID != 0 {
			return fmt.Errorf("%w: operators only", ErrInvalid)
		}
		if link, err = s.issueLink(ctx, tx, u.ID, ttl); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, "user.password_link", deref(u.ConsumerID, 0), u.Email, "", nil,
			map[string]any{"userId": u.ID, "email": u.Email, "expiresAt": link.ExpiresAt})
	})
	if err != nil {
		return PasswordLink{}, fmt.Errorf("new password link for user %d: %w", userID, err)
	}
	return link, nil
}

// PasswordLinkUser returns the user of a valid (known, unused, unexpired) set-password link, to
// render the form. Errors: ErrNotFound for any other token.
func (s *Service) PasswordLinkUser(ctx context.Context, token string) (User, error) {
	_, u, err := s.liveLink(ctx, token)
	if err != nil {
		return User{}, err
	}
	return toUser(u), nil
}

// SetPassword sets the password of a set-password link's user and uses the link up. A weak
// password leaves the link usable. Errors: ErrNotFound (unknown, used or expired link),
// ErrWeakPassword (an ErrInvalid).
func (s *Service) SetPassword(ctx context.Context, token, password string) (User, error) {
	t, u, err := s.liveLink(ctx, token)
	if err != nil {
		return User{}, fmt.Errorf("set password: %w", err)
	}
	hash, err := HashPassword(password)
	if err != nil {
		return User{}, fmt.Errorf("set password: %w", err)
	}
	var out User
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		// Single use even against a concurrent SetPassword: only one of them flips used_at.
		n, err := tx.PasswordToken.Update().Where(passwordtoken.ID(t.ID), passwordtoken.UsedAtIsNil()).
			SetUsedAt(s.now()).Save(ctx)
		if err != nil {
			return err
		}
		if n != 1 {
			return fmt.Errorf("set-password link: %w", ErrNotFound)
		}
		if _, err := tx.PasswordToken.Delete().Where(passwordtoken.UserID(u.ID), passwordtoken.UsedAtIsNil()).Exec(ctx); err != nil {
			return err
		}
		nu, err := tx.ConsoleUser.UpdateOneID(u.ID).SetPasswordHash(hash).SetPasswordChangedAt(s.now()).Save(ctx)
		if err != nil {
			return notFound(err, "user", u.ID)
		}
		out = toUser(nu)
		return s.audit(ctx, tx, Actor{Name: "user:" + nu.Email}, "user.password_set", out.ConsumerID, out.Email, "", nil,
			map[string]any{"userId": out.ID, "email": out.Email})
	})
	if err != nil {
		return User{}, fmt.Errorf("set password: %w", err)
	}
	s.throttle.clearAccount(out.Email)
	return out, nil
}

// SignIn checks an email and password, and records the sign-in. For a user with two-factor
// sign-in (User.TwoFactor) the password is only the first step: nothing is recorded, the
// account's earlier failures stay counted, and SignInCode completes the sign-in. Errors: ErrBadCredentials
// (unknown email, wrong password, password not set yet: indistinguishable, and each costs one
// argon2id check), *Throttled (too many recent failures for the account or the source; nothing
// is checked).
func (s *Service) SignIn(ctx context.Context, email, password string, source netip.Addr) (User, error) {
	account, emailErr := NormalizeEmail(email)
	attempt, err := s.throttle.Begin(account, source) // account "" (malformed email): counted per source only
	if err != nil {
		return User{}, fmt.Errorf("sign in: %w", err)
	}
	var u *ent.ConsoleUser
	if emailErr == nil {
		u, err = s.db.ConsoleUser.Query().Where(consoleuser.Email(account)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			attempt.Abandon()
			return User{}, fmt.Errorf("sign in: %w", err)
		}
	}
	hash := dummyHash
	if u != nil && u.PasswordHash != "" && len(password) <= MaxPasswordLen {
		hash = u.PasswordHash
	}
	ok, err := CheckPassword(hash, password)
	if err != nil {
		attempt.Abandon()
		return User{}, fmt.Errorf("sign in: user %d: %w", u.ID, err) // only a stored hash can be malformed
	}
	if !ok || hash == dummyHash {
		return User{}, fmt.Errorf("sign in: %w", ErrBadCredentials)
	}
	if u.TotpEnabledAt != nil {
		// The right password of a two-factor account: this attempt is taken back, but the
		// account's failures are not cleared, so that wrong codes keep counting (SignInCode).
		attempt.Abandon()
		return toUser(u), nil
	}
	u, err = s.db.ConsoleUser.UpdateOne(u).SetLastSignInAt(s.now()).Save(ctx)
	if err != nil {
		attempt.Abandon()
		return User{}, fmt.Errorf("sign in: %w", notFound(err, "user", u.ID))
	}
	attempt.Succeeded()
	return toUser(u), nil
}

// User returns one console user; a consumer's user sees only its own consumer's users.
// Errors: ErrNotFound.
func (s *Service) User(ctx context.Context, a Actor, id int) (User, error) {
	u, err := s.ownUser(ctx, s.db, a, id)
	if err != nil {
		return User{}, fmt.Errorf("read user %d: %w", id, err)
	}
	return toUser(u), nil
}

// ListUsers returns console users by email: a consumer's (consumerID > 0), or every user,
// operators included (consumerID 0, operators only; a consumer's user gets its own consumer's).
// Errors: ErrNotFound (no such consumer, or another tenant's).
func (s *Service) ListUsers(ctx context.Context, a Actor, consumerID int) ([]User, error) {
	if a.ConsumerID != 0 {
		if consumerID != 0 && consumerID != a.ConsumerID {
			return nil, fmt.Errorf("list users: consumer %d: %w", consumerID, ErrNotFound)
		}
		consumerID = a.ConsumerID
	}
	q := s.db.ConsoleUser.Query().Order(ent.Asc(consoleuser.FieldEmail))
	if consumerID != 0 {
		if _, err := s.db.Consumer.Get(ctx, consumerID); err != nil {
			return nil, fmt.Errorf("list users: %w", notFound(err, "consumer", consumerID))
		}
		q.Where(consoleuser.ConsumerID(consumerID))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	out := make([]User, len(rows))
	for i, r := range rows {
		out[i] = toUser(r)
	}
	return out, nil
}

// ownUser loads a user the actor may see: ErrNotFound for another consumer's user and, for a
// consumer's user, for operators.
func (s *Service) ownUser(ctx context.Context, db *ent.Client, a Actor, id int) (*ent.ConsoleUser, error) {
	q := db.ConsoleUser.Query().Where(consoleuser.ID(id))
	if a.ConsumerID != 0 {
		q.Where(consoleuser.ConsumerID(a.ConsumerID))
	}
	u, err := q.Only(ctx)
	return u, notFound(err, "user", id)
}

// issueLink deletes the user's unused links and creates a new one inside tx.
func (s *Service) issueLink(ctx context.Context, tx *ent.Tx, userID int, ttl time.Duration) (PasswordLink, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return PasswordLink{}, err
	}
	if _, err := tx.PasswordToken.Delete().Where(passwordtoken.UserID(userID), passwordtoken.UsedAtIsNil()).Exec(ctx); err != nil {
		return PasswordLink{}, err
	}
	h := sha256.Sum256(raw)
	now := s.now()
	link := PasswordLink{Token: base64.RawURLEncoding.EncodeToString(raw), ExpiresAt: now.Add(ttl)}
	if err := tx.PasswordToken.Create().SetTokenHash(h[:]).SetUserID(userID).SetCreatedAt(now).
		SetExpiresAt(link.ExpiresAt).Exec(ctx); err != nil {
		return PasswordLink{}, err
	}
	return link, nil
}

// liveLink finds a known, unused, unexpired link and its user, else ErrNotFound.
func (s *Service) liveLink(ctx context.Context, token string) (*ent.PasswordToken, *ent.ConsoleUser, error) {
	missing := fmt.Errorf("set-password link: %w", ErrNotFound)
	if len(token) != tokenLen {
		return nil, nil, missing
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil {
		return nil, nil, missing
	}
	h := sha256.Sum256(raw)
	t, err := s.db.PasswordToken.Query().Where(passwordtoken.TokenHash(h[:])).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, missing
	}
	if err != nil {
		return nil, nil, err
	}
	if t.UsedAt != nil || !s.now().Before(t.ExpiresAt) {
		return nil, nil, missing
	}
	u, err := s.db.ConsoleUser.Get(ctx, t.UserID)
	if ent.IsNotFound(err) {
		return nil, nil, missing
	}
	if err != nil {
		return nil, nil, err
	}
	return t, u, nil
}

func linkTTL(ttl time.Duration) (time.Duration, error) {
	if ttl <= 0 {
		return DefaultPasswordLinkTTL, nil
	}
	if ttl > MaxPasswordLinkTTL {
		return 0, fmt.Errorf("%w: a set-password link is valid for at most 7 days", ErrInvalid)
	}
	return ttl, nil
}

func toUser(u *ent.ConsoleUser) User {
	out := User{ID: u.ID, Email: u.Email, Role: string(u.Role), ConsumerID: deref(u.ConsumerID, 0),
		PasswordSet: u.PasswordHash != "", CreatedAt: u.CreatedAt, LastSignInAt: u.LastSignInAt,
		InvitedBy: u.InvitedBy, TwoFactor: u.TotpEnabledAt != nil}
	if u.Role == consoleuser.RoleConsumer {
		out.TeamRole = TeamOwner
		if u.TeamRole != nil {
			out.TeamRole = string(*u.TeamRole)
		}
	}
	if out.PasswordSet {
		sum := sha256.Sum256([]byte(u.PasswordHash))
		out.CredentialStamp = base64.RawStdEncoding.EncodeToString(sum[:16])
	}
	return out
}

// ChangePassword sets a signed-in user's new password when current is their password. The
// returned user has the new CredentialStamp: sessions that signed in with the old one end (the
// caller keeps its own session by storing the new stamp). Errors: ErrBadCredentials (wrong
// current password), ErrWeakPassword (an ErrInvalid), ErrNotFound.
func (s *Service) ChangePassword(ctx context.Context, userID int, current, password string) (User, error) {
	u, err := s.db.ConsoleUser.Get(ctx, userID)
	if err != nil {
		return User{}, fmt.Errorf("change password: %w", notFound(err, "user", userID))
	}
	if u.PasswordHash == "" || len(current) > MaxPasswordLen {
		return User{}, fmt.Errorf("change password: %w", ErrBadCredentials)
	}
	ok, err := CheckPassword(u.PasswordHash, current)
	if err != nil {
		return User{}, fmt.Errorf("change password: user %d: %w", u.ID, err)
	}
	if !ok {
		return User{}, fmt.Errorf("change password: %w", ErrBadCredentials)
	}
	hash, err := HashPassword(password)
	if err != nil {
		return User{}, fmt.Errorf("change password: %w", err)
	}
	var out User
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		// Only if the password is still the one checked: a concurrent change wins once.
		n, err := tx.ConsoleUser.Update().Where(consoleuser.ID(u.ID), consoleuser.PasswordHash(u.PasswordHash)).
			SetPasswordHash(hash).SetPasswordChangedAt(s.now()).Save(ctx)
		if err != nil {
			return err
		}
		if n != 1 {
			return ErrBadCredentials
		}
		nu, err := tx.ConsoleUser.Get(ctx, u.ID)
		if err != nil {
			return notFound(err, "user", u.ID)
		}
		out = toUser(nu)
		return s.audit(ctx, tx, selfActor(nu), "user.password_change", out.ConsumerID, out.Email, "", nil,
			map[string]any{"userId": out.ID, "email": out.Email})
	})
	if err != nil {
		return User{}, fmt.Errorf("change password: %w", err)
	}
	return out, nil
}
