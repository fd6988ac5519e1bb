package access

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consumer"
	"github.com/partner-platform/partnerd/ent/scopegrant"
	"github.com/partner-platform/partnerd/ent/sourceallow"
)

// Consumer is a partner company's plan: its access switch, grants and negotiated limits.
type Consumer struct {
	ID                 int       `json:"id"`
	Name               string    `json:"name"`
	AccessEnabled      bool      `json:"accessEnabled"`
	Scopes             []string  `json:"scopes"`
	RatePerMinute      int       `json:"ratePerMinute"`
	Burst              int       `json:"burst"`
	Allow              []string  `json:"allow" doc:"source CIDRs; empty means any source"`
	DisabledOperations []string  `json:"disabledOperations"`
	Price              string    `json:"price"`
	CreatedAt          time.Time `json:"createdAt"`
	UpdatedAt          time.Time `json:"updatedAt"`

	// AccessChangedAt is when access was last switched on or off (at creation for a consumer whose
	// access never changed); nil for a consumer created before it was recorded.
	AccessChangedAt *time.Time `json:"accessChangedAt,omitempty"`
}

// ConsumerChange is a change to a consumer; nil fields stay as they are.
type ConsumerChange struct {
	Name               *string
	Scopes             *[]string
	RatePerMinute      *int
	Burst              *int
	Allow              *[]netip.Prefix
	DisabledOperations *[]string
	Price              *string
	AccessEnabled      *bool
}

// Default limits of a new consumer.
const (
	DefaultRatePerMinute = 60
	DefaultBurst         = 60
)

// CreateConsumer creates a consumer. Unset limits get the defaults; access is off unless enabled.
// Errors: ErrInvalid (bad scope, operation or limit), ErrConflict (name taken).
func (s *Service) CreateConsumer(ctx context.Context, a Actor, name string, ch ConsumerChange) (Consumer, error) {
	if a.ConsumerID != 0 {
		return Consumer{}, fmt.Errorf("create consumer: %w: operators only", ErrInvalid)
	}
	ch.Name = &name
	if err := s.validate(ch); err != nil {
		return Consumer{}, fmt.Errorf("create consumer: %w", err)
	}
	var out Consumer
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		c, err := tx.Consumer.Create().SetName(strings.TrimSpace(name)).
			SetRatePerMinute(deref(ch.RatePerMinute, DefaultRatePerMinute)).
			SetBurst(deref(ch.Burst, DefaultBurst)).
			SetAccessEnabled(deref(ch.AccessEnabled, false)).
			SetAccessChangedAt(s.now()).
			SetPrice(deref(ch.Price, "")).
			SetDisabledOperations(deref(ch.DisabledOperations, []string{})).
			SetCreatedAt(s.now()).SetUpdatedAt(s.now()).
			Save(ctx)
		if ent.IsConstraintError(err) {
			return nameTaken(name)
		}
		if err != nil {
			return err
		}
		if err := replaceGrants(ctx, tx, c.ID, ch); err != nil {
			return err
		}
		if out, err = readConsumer(ctx, tx.Client(), c.ID); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, "consumer.create", c.ID, out.Name, "", nil, out)
	})
	if err != nil {
		return Consumer{}, fmt.Errorf("create consumer: %w", err)
	}
	return out, nil
}

// UpdateConsumer applies a change; reason is kept in the audit log (for access switches).
// Errors: ErrNotFound (also for a consumer's own user naming another consumer), ErrInvalid (bad
// change, or a consumer's own user: operators only), ErrConflict.
func (s *Service) UpdateConsumer(ctx context.Context, a Actor, id int, ch ConsumerChange, reason string) (Consumer, error) {
	if a.ConsumerID != 0 && a.ConsumerID != id {
		return Consumer{}, fmt.Errorf("update consumer %d: %w", id, ErrNotFound) // another tenant's: not ours to see
	}
	if a.ConsumerID != 0 {
		return Consumer{}, fmt.Errorf("update consumer: %w: operators only", ErrInvalid)
	}
	if err := s.validate(ch); err != nil {
		return Consumer{}, fmt.Errorf("update consumer %d: %w", id, err)
	}
	var out Consumer
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		before, err := readConsumer(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		u := tx.Consumer.UpdateOneID(id).SetUpdatedAt(s.now())
		if ch.Name != nil {
			u.SetName(strings.TrimSpace(*ch.Name))
		}
		if ch.RatePerMinute != nil {
			u.SetRatePerMinute(*ch.RatePerMinute)
		}
		if ch.Burst != nil {
			u.SetBurst(*ch.Burst)
		}
		if ch.Price != nil {
			u.SetPrice(*ch.Price)
		}
		if ch.DisabledOperations != nil {
			u.SetDisabledOperations(*ch.DisabledOperations)
		}
		if ch.AccessEnabled != nil {
			u.SetAccessEnabled(*ch.AccessEnabled)
			if *ch.AccessEnabled != before.AccessEnabled {
				u.SetAccessChangedAt(s.now())
			}
		}
		if err := u.Exec(ctx); ent.IsConstraintError(err) {
			return nameTaken(*ch.Name)
		} else if err != nil {
			return err
		}
		if err := replaceGrants(ctx, tx, id, ch); err != nil {
			return err
		}
		if out, err = readConsumer(ctx, tx.Client(), id); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, actionFor(ch), id, out.Name, reason, before, out)
	})
	if err != nil {
		return Consumer{}, fmt.Errorf("update consumer %d: %w", id, notFound(err, "consumer", id))
	}
	return out, nil
}

// nameTaken is the error of a name another consumer has.
func nameTaken(name string) error {
	return &FieldError{Field: FieldName, Problem: fmt.Sprintf("a consumer named %q exists", strings.TrimSpace(name)), err: ErrConflict}
}

// SetAccess switches a consumer's API access on or off, with a reason for the audit log.
func (s *Service) SetAccess(ctx context.Context, a Actor, id int, enabled bool, reason string) (Consumer, error) {
	return s.UpdateConsumer(ctx, a, id, ConsumerChange{AccessEnabled: &enabled}, reason)
}

// actionFor names an update in the audit log.
func actionFor(ch ConsumerChange) string {
	if ch.AccessEnabled != nil && ch.Name == nil && ch.Scopes == nil && ch.RatePerMinute == nil && ch.Burst == nil &&
		ch.Allow == nil && ch.DisabledOperations == nil && ch.Price == nil {
		if *ch.AccessEnabled {
			return "consumer.enable"
		}
		return "consumer.disable"
	}
	return "consumer.update"
}

// Consumer returns one consumer; a consumer's own user may read only its own.
func (s *Service) Consumer(ctx context.Context, a Actor, id int) (Consumer, error) {
	if a.ConsumerID != 0 && a.ConsumerID != id {
		return Consumer{}, fmt.Errorf("consumer %d: %w", id, ErrNotFound)
	}
	c, err := readConsumer(ctx, s.db, id)
	if err != nil {
		return Consumer{}, fmt.Errorf("read consumer %d: %w", id, notFound(err, "consumer", id))
	}
	return c, nil
}

// ListConsumers returns every consumer by id (operators only), optionally those whose name contains search.
func (s *Service) ListConsumers(ctx context.Context, a Actor, search string) ([]Consumer, error) {
	q := s.db.Consumer.Query().WithScopes().WithSources().Order(ent.Asc(consumer.FieldID))
	if a.ConsumerID != 0 {
		q.Where(consumer.ID(a.ConsumerID))
	}
	if search != "" {
		q.Where(consumer.NameContainsFold(search))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list consumers: %w", err)
	}
	out := make([]Consumer, len(rows))
	for i, r := range rows {
		out[i] = toConsumer(r)
	}
	return out, nil
}

func readConsumer(ctx context.Context, db *ent.Client, id int) (Consumer, error) {
	c, err := db.Consumer.Query().Where(consumer.ID(id)).WithScopes().WithSources().Only(ctx)
	if err != nil {
		return Consumer{}, err
	}
	return toConsumer(c), nil
}

func toConsumer(c *ent.Consumer) Consumer {
	out := Consumer{
		ID: c.ID, Name: c.Name, AccessEnabled: c.AccessEnabled, RatePerMinute: c.RatePerMinute, Burst: c.Burst,
		Price: c.Price, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, AccessChangedAt: c.AccessChangedAt,
		Scopes: []string{}, Allow: []string{}, DisabledOperations: append([]string{}, c.DisabledOperations...),
	}
	for _, g := range c.Edges.Scopes {
		out.Scopes = append(out.Scopes, g.Scope)
	}
	for _, a := range c.Edges.Sources {
		out.Allow = append(out.Allow, a.Cidr)
	}
	slices.Sort(out.Scopes)
	slices.Sort(out.Allow)
	slices.Sort(out.DisabledOperations)
	return out
}

// replaceGrants replaces the consumer's scopes and allowlist where the change sets them.
func replaceGrants(ctx context.Context, tx *ent.Tx, id int, ch ConsumerChange) error {
	if ch.Scopes != nil {
		if _, err := tx.ScopeGrant.Delete().Where(scopegrant.ConsumerID(id)).Exec(ctx); err != nil {
			return err
		}
		for _, sc := range uniq(*ch.Scopes) {
			if err := tx.ScopeGrant.Create().SetConsumerID(id).SetScope(sc).Exec(ctx); err != nil {
				return err
			}
		}
	}
	if ch.Allow != nil {
		if _, err := tx.SourceAllow.Delete().Where(sourceallow.ConsumerID(id)).Exec(ctx); err != nil {
			return err
		}
		seen := map[netip.Prefix]bool{}
		for _, p := range *ch.Allow {
			p = canonicalPrefix(p)
			if seen[p] {
				continue
			}
			seen[p] = true
			if err := tx.SourceAllow.Create().SetConsumerID(id).SetCidr(p.String()).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// Fields of a consumer named by a FieldError: the JSON names of Consumer.
const (
	FieldName               = "name"
	FieldScopes             = "scopes"
	FieldRatePerMinute      = "ratePerMinute"
	FieldBurst              = "burst"
	FieldAllow              = "allow"
	FieldDisabledOperations = "disabledOperations"
	FieldPrice              = "price"
)

// FieldError is what is wrong with one field of a change, in words for people ("burst must be 0
// to 1000000"). It matches ErrInvalid, or ErrConflict for a name another consumer has.
type FieldError struct {
	Field   string // one of the Field constants
	Problem string
	err     error // ErrInvalid or ErrConflict
}

func (e *FieldError) Error() string { return e.err.Error() + ": " + e.Problem }

// Unwrap makes errors.Is(err, ErrInvalid) (or ErrConflict) hold.
func (e *FieldError) Unwrap() error { return e.err }

func invalidField(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...), err: ErrInvalid}
}

// FieldErrors returns every *FieldError in err's tree (a change can have several), in order.
func FieldErrors(err error) []*FieldError {
	var out []*FieldError
	var walk func(error)
	walk = func(err error) {
		switch e := err.(type) {
		case nil:
		case *FieldError:
			out = append(out, e)
		case interface{ Unwrap() []error }:
			for _, inner := range e.Unwrap() {
				walk(inner)
			}
		case interface{ Unwrap() error }:
			walk(e.Unwrap())
		}
	}
	walk(err)
	return out
}

// CheckConsumerChange reports every invalid field of a change, each as a *FieldError (joined), or
// nil. It reads nothing: a name another consumer has is found only when the change is made.
func (s *Service) CheckConsumerChange(ch ConsumerChange) error { return s.validate(ch) }

// validate checks a change before anything is written: every invalid field, in the order of
// ConsumerChange, each a *FieldError.
func (s *Service) validate(ch ConsumerChange) error {
	var errs []error
	if ch.Name != nil {
		if n := strings.TrimSpace(*ch.Name); n == "" || len(n) > 200 {
			errs = append(errs, invalidField(FieldName, "name must be 1 to 200 characters"))
		}
	}
	if ch.Scopes != nil {
		for _, sc := range *ch.Scopes {
			if !slices.Contains(Scopes, sc) {
				errs = append(errs, invalidField(FieldScopes, "unknown scope %q (want %s)", sc, strings.Join(Scopes, ", ")))
				break
			}
		}
	}
	if ch.RatePerMinute != nil && (*ch.RatePerMinute < 0 || *ch.RatePerMinute > 1_000_000) {
		errs = append(errs, invalidField(FieldRatePerMinute, "rate per minute must be 0 to 1000000"))
	}
	if ch.Burst != nil && (*ch.Burst < 0 || *ch.Burst > 1_000_000) {
		errs = append(errs, invalidField(FieldBurst, "burst must be 0 to 1000000"))
	}
	if ch.Allow != nil {
		for _, p := range *ch.Allow {
			if !p.IsValid() || p.Addr().Zone() != "" {
				errs = append(errs, invalidField(FieldAllow, "source %q is not a CIDR prefix", p))
				break
			}
		}
	}
	if ch.DisabledOperations != nil {
		for _, op := range *ch.DisabledOperations {
			if !s.operations[op] {
				errs = append(errs, invalidField(FieldDisabledOperations, "unknown operation %q", op))
				break
			}
		}
	}
	if ch.Price != nil && len(*ch.Price) > 500 {
		errs = append(errs, invalidField(FieldPrice, "price must be at most 500 characters"))
	}
	return errors.Join(errs...)
}

// canonicalPrefix is p as the allowlist stores it, the form policy.ParseCIDRs gives: masked, and an
// IPv4-mapped IPv6 prefix of /96 or longer rewritten as the IPv4 prefix it covers (the policy
// compares unmapped client addresses, which such a prefix would never contain).
func canonicalPrefix(p netip.Prefix) netip.Prefix {
	if a := p.Addr(); a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
	}
	return p.Masked()
}

func uniq(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
