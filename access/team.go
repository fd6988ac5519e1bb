package access

import (
	"context"
	"fmt"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/consolesession"
	"github.com/partner-platform/partnerd/ent/consoleuser"
	"github.com/partner-platform/partnerd/ent/passwordtoken"
	"github.com/partner-platform/partnerd/ent/recoverycode"
)

// Team roles of a consumer's users: an owner may do everything, a developer manage keys and read
// usage and the request log, a viewer only read usage and the request log.
const (
	TeamOwner     = "owner"
	TeamDeveloper = "developer"
	TeamViewer    = "viewer"
)

// TeamRank orders the team roles: a role includes every role of a lower rank. Unknown roles rank 0.
func TeamRank(role string) int {
	switch role {
	case TeamOwner:
		return 3
	case TeamDeveloper:
		return 2
	case TeamViewer:
		return 1
	}
	return 0
}

// ErrLastOwner is the error of removing or demoting a team's last owner who has a password: the
// team would be left with nobody to manage it. It is an ErrInvalid.
var ErrLastOwner = fmt.Errorf("%w: a team keeps at least one owner: make someone else owner first", ErrInvalid)

// Member is a user of a consumer's team; Invitation is set while the user has not set a password.
type Member struct {
	User
	// InvitationExpiresAt is when the pending invitation's link expires (nil: no live link).
	InvitationExpiresAt *time.Time `json:"invitationExpiresAt,omitempty"`
}

// Pending reports whether the member has not accepted the invitation (set a password) yet.
func (m Member) Pending() bool { return !m.PasswordSet }

// teamActor checks that a may manage consumerID's team: an operator, or a user of that consumer
// (the console lets only owners through). Another consumer's user gets ErrNotFound.
func teamActor(a Actor, consumerID int) error {
	if a.ConsumerID != 0 && a.ConsumerID != consumerID {
		return fmt.Errorf("consumer %d: %w", consumerID, ErrNotFound)
	}
	return nil
}

// validRole checks a team role name.
func validRole(role string) (consoleuser.TeamRole, error) {
	if TeamRank(role) == 0 {
		return "", fmt.Errorf("%w: role must be owner, developer or viewer", ErrInvalid)
	}
	return consoleuser.TeamRole(role), nil
}

// Team returns a consumer's users by email with their pending invitations. Errors: ErrNotFound
// (no such consumer, or another tenant's).
func (s *Service) Team(ctx context.Context, a Actor, consumerID int) ([]Member, error) {
	if err := teamActor(a, consumerID); err != nil {
		return nil, fmt.Errorf("read team: %w", err)
	}
	users, err := s.ListUsers(ctx, a, consumerID)
	if err != nil {
		return nil, fmt.Errorf("read team: %w", err)
	}
	ids := make([]int, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	links, err := s.db.PasswordToken.Query().Where(passwordtoken.UserIDIn(ids...), passwordtoken.UsedAtIsNil(),
		passwordtoken.ExpiresAtGT(s.now())).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("read team: %w", err)
	}
	expires := map[int]time.Time{}
	for _, l := range links {
		if l.ExpiresAt.After(expires[l.UserID]) {
			expires[l.UserID] = l.ExpiresAt
		}
	}
	out := make([]Member, len(users))
	for i, u := range users {
		out[i] = Member{User: u}
		if e, ok := expires[u.ID]; ok && !u.PasswordSet {
			out[i].InvitationExpiresAt = &e
		}
	}
	return out, nil
}

// Invite adds a user with a team role to a consumer and issues the one-time set-password link
// that invites them, valid for ttl (as in CreateConsumerUser). Errors: ErrNotFound (no such
// consumer, or another tenant's), ErrInvalid (bad email, role or ttl), ErrConflict (email taken).
func (s *Service) Invite(ctx context.Context, a Actor, consumerID int, email, role string, ttl time.Duration) (User, PasswordLink, error) {
	if err := teamActor(a, consumerID); err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("invite: %w", err)
	}
	tr, err := validRole(role)
	if err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("invite: %w", err)
	}
	u, link, err := s.addMember(ctx, a, consumerID, email, tr, ttl, "team.invite")
	if err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("invite: %w", err)
	}
	return u, link, nil
}

// addMember creates a user of a consumer with a team role, without a password, and issues its
// first set-password link, valid for ttl, audited as action. Errors: ErrNotFound (no such
// consumer), ErrInvalid (bad email or ttl), ErrConflict (email taken).
func (s *Service) addMember(ctx context.Context, a Actor, consumerID int, email string, role consoleuser.TeamRole, ttl time.Duration, action string) (User, PasswordLink, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return User{}, PasswordLink{}, err
	}
	if ttl, err = linkTTL(ttl); err != nil {
		return User{}, PasswordLink{}, err
	}
	var out User
	var link PasswordLink
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		if _, err := tx.Consumer.Get(ctx, consumerID); err != nil {
			return notFound(err, "consumer", consumerID)
		}
		u, err := tx.ConsoleUser.Create().SetEmail(email).SetRole(consoleuser.RoleConsumer).
			SetConsumerID(consumerID).SetTeamRole(role).SetInvitedBy(a.Name).SetCreatedAt(s.now()).Save(ctx)
		if ent.IsConstraintError(err) {
			return fmt.Errorf("%w: a user with email %q exists", ErrConflict, email)
		}
		if err != nil {
			return err
		}
		out = toUser(u)
		if link, err = s.issueLink(ctx, tx, u.ID, ttl); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, action, consumerID, out.Email, "", nil, map[string]any{
			"userId": out.ID, "email": out.Email, "consumerId": consumerID, "role": out.TeamRole, "linkExpiresAt": link.ExpiresAt})
	})
	return out, link, err
}

// ResendInvitation issues a new set-password link to a member who has not set a password yet;
// the earlier link stops working. Errors: ErrNotFound (no such member of the consumer, or
// another tenant's), ErrInvalid (the member already set a password, or bad ttl).
func (s *Service) ResendInvitation(ctx context.Context, a Actor, consumerID, userID int, ttl time.Duration) (User, PasswordLink, error) {
	if err := teamActor(a, consumerID); err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("resend invitation: %w", err)
	}
	ttl, err := linkTTL(ttl)
	if err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("resend invitation: %w", err)
	}
	var out User
	var link PasswordLink
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		u, err := member(ctx, tx, consumerID, userID)
		if err != nil {
			return err
		}
		if u.PasswordHash != "" {
			return fmt.Errorf("%w: %s has accepted the invitation already", ErrInvalid, u.Email)
		}
		out = toUser(u)
		if link, err = s.issueLink(ctx, tx, u.ID, ttl); err != nil {
			return err
		}
		return s.audit(ctx, tx, a, "team.invite_resend", consumerID, u.Email, "", nil,
			map[string]any{"userId": u.ID, "email": u.Email, "linkExpiresAt": link.ExpiresAt})
	})
	if err != nil {
		return User{}, PasswordLink{}, fmt.Errorf("resend invitation: %w", err)
	}
	return out, link, nil
}

// SetTeamRole changes a member's role. Errors: ErrNotFound (no such member of the consumer, or
// another tenant's), ErrInvalid (bad role), ErrLastOwner.
func (s *Service) SetTeamRole(ctx context.Context, a Actor, consumerID, userID int, role string) (User, error) {
	if err := teamActor(a, consumerID); err != nil {
		return User{}, fmt.Errorf("set team role: %w", err)
	}
	tr, err := validRole(role)
	if err != nil {
		return User{}, fmt.Errorf("set team role: %w", err)
	}
	var out User
	err = s.inTx(ctx, func(tx *ent.Tx) error {
		if err := lockTeam(ctx, tx, consumerID); err != nil {
			return err
		}
		u, err := member(ctx, tx, consumerID, userID)
		if err != nil {
			return err
		}
		before := toUser(u).TeamRole
		if before == role {
			out = toUser(u)
			return nil
		}
		if role != TeamOwner {
			if err := keepsOwner(ctx, tx, consumerID, u); err != nil {
				return err
			}
		}
		nu, err := tx.ConsoleUser.UpdateOneID(u.ID).SetTeamRole(tr).Save(ctx)
		if err != nil {
			return err
		}
		out = toUser(nu)
		return s.audit(ctx, tx, a, "team.role", consumerID, u.Email, "",
			map[string]any{"userId": u.ID, "email": u.Email, "role": before},
			map[string]any{"userId": u.ID, "email": u.Email, "role": out.TeamRole})
	})
	if err != nil {
		return User{}, fmt.Errorf("set team role: %w", err)
	}
	return out, nil
}

// RemoveMember deletes a member of a consumer's team with their links, recovery codes and
// sessions: they are signed out at once. Errors: ErrNotFound (no such member of the consumer, or
// another tenant's), ErrLastOwner.
func (s *Service) RemoveMember(ctx context.Context, a Actor, consumerID, userID int) (User, error) {
	if err := teamActor(a, consumerID); err != nil {
		return User{}, fmt.Errorf("remove member: %w", err)
	}
	var out User
	err := s.inTx(ctx, func(tx *ent.Tx) error {
		if err := lockTeam(ctx, tx, consumerID); err != nil {
			return err
		}
		u, err := member(ctx, tx, consumerID, userID)
		if err != nil {
			return err
		}
		if err := keepsOwner(ctx, tx, consumerID, u); err != nil {
			return err
		}
		out = toUser(u)
		if _, err := tx.ConsoleSession.Delete().Where(consolesession.UserID(u.ID)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.PasswordToken.Delete().Where(passwordtoken.UserID(u.ID)).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.RecoveryCode.Delete().Where(recoverycode.UserID(u.ID)).Exec(ctx); err != nil {
			return err
		}
		if err := tx.ConsoleUser.DeleteOneID(u.ID).Exec(ctx); err != nil {
			return notFound(err, "user", u.ID)
		}
		return s.audit(ctx, tx, a, "team.remove", consumerID, u.Email, "",
			map[string]any{"userId": u.ID, "email": u.Email, "role": out.TeamRole}, nil)
	})
	if err != nil {
		return User{}, fmt.Errorf("remove member: %w", err)
	}
	return out, nil
}

// member loads a user of consumerID inside tx; any other id is ErrNotFound.
func member(ctx context.Context, tx *ent.Tx, consumerID, userID int) (*ent.ConsoleUser, error) {
	u, err := tx.ConsoleUser.Query().Where(consoleuser.ID(userID), consoleuser.ConsumerID(consumerID),
		consoleuser.RoleEQ(consoleuser.RoleConsumer)).Only(ctx)
	return u, notFound(err, "user", userID)
}

// lockTeam serializes changes to one consumer's team: a no-op update takes the row locks of its
// users on PostgreSQL (SQLite serializes writers anyway), so two owners demoting each other at
// once cannot both pass the last-owner check.
func lockTeam(ctx context.Context, tx *ent.Tx, consumerID int) error {
	_, err := tx.ConsoleUser.Update().Where(consoleuser.ConsumerID(consumerID)).AddTotpLastStep(0).Save(ctx)
	return err
}

// keepsOwner refuses a change that takes u's ownership away when u is the team's last owner who
// can sign in (has a password). A user without a stored role is an owner.
func keepsOwner(ctx context.Context, tx *ent.Tx, consumerID int, u *ent.ConsoleUser) error {
	if toUser(u).TeamRole != TeamOwner || u.PasswordHash == "" {
		return nil
	}
	n, err := tx.ConsoleUser.Query().Where(consoleuser.ConsumerID(consumerID), consoleuser.IDNEQ(u.ID),
		consoleuser.PasswordHashNEQ(""), consoleuser.PasswordHashNotNil(),
		consoleuser.Or(consoleuser.TeamRoleEQ(consoleuser.TeamRoleOwner), consoleuser.TeamRoleIsNil())).Count(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrLastOwner
	}
	return nil
}
