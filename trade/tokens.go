package trade

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/partner-platform/partnerd/ent"
	"github.com/partner-platform/partnerd/ent/confirmationtoken"
)

// ConfirmationTTL is how long a confirmation token is valid (the contract's 15 minutes).
const ConfirmationTTL = 15 * time.Minute

// ErrStore wraps a failure of the confirmation token store, and the store's error: an outage of the
// store (store.Unavailable) answers 503 unavailable.
var ErrStore = errors.New("confirmation token store unavailable")

// tokenPrefix starts every confirmation token.
const tokenPrefix = "ct_"

// tokenStore keeps confirmation tokens: only SHA-256 of a token is stored, with the consumer, the
// chain and the binding (transactions in order and fee rows) it confirms.
type tokenStore struct {
	db *ent.Client
}

// binding is what a token is bound to besides consumer and chain.
type binding struct {
	Transactions []boundTx `json:"transactions"`
	Fees         []Fee     `json:"fees"`
}

// boundTx is a built transaction as confirm checks it against the chain.
type boundTx struct {
	ID    string `json:"id"`
	From  string `json:"from"`
	To    string `json:"to"`
	Data  string `json:"data"`
	Value string `json:"value"`
	// Payload is a Solana build's serialized transaction (base64), which confirm compares the mined
	// transaction's message with.
	Payload string `json:"payload,omitempty"`
}

// issue makes a new token for build b, "ct_" and 32 random bytes (base64url), and sets it on b
// with the row that stores it: nothing is written until b.Keep, so a token is stored only together
// with the answer that hands it out (see Build.Keep).
func (t *tokenStore) issue(consumerID int, chainName string, b *Build, now time.Time) error {
	raw := make([]byte, 32)
	rand.Read(raw)
	token := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw)
	bd := binding{Fees: b.Fees}
	for _, tx := range b.Transactions {
		bt := boundTx{ID: tx.ID, From: tx.From, To: tx.To, Data: tx.Data, Value: tx.Value}
		if tx.Payload != nil {
			bt.Payload = tx.Payload.Transaction
		}
		bd.Transactions = append(bd.Transactions, bt)
	}
	m, err := toMap(bd)
	if err != nil {
		return err
	}
	hash := sha256.Sum256([]byte(token))
	b.ConfirmationToken = token
	b.token = &pendingToken{hash: hash[:], consumerID: consumerID, chain: chainName, binding: m, at: now}
	return nil
}

// pendingToken is the row of a build's confirmation token, written by Build.Keep.
type pendingToken struct {
	hash       []byte
	consumerID int
	chain      string
	binding    map[string]any
	at         time.Time
}

// Keep stores the build's confirmation token with db; until then confirm does not know it. The
// caller passes the client of the transaction that also keeps the answer carrying the token (the
// API stores it with the call's idempotency record), so that a token is stored exactly when its
// answer is: an answer the store failed to keep leaves no token behind, and one it kept always has
// its token. A build without a token (none issued) keeps nothing.
func (b Build) Keep(ctx context.Context, db *ent.Client) error {
	p := b.token
	if p == nil {
		return nil
	}
	err := db.ConfirmationToken.Create().SetTokenHash(p.hash).SetConsumerID(p.consumerID).SetChain(p.chain).SetBinding(p.binding).
		SetCreatedAt(p.at).SetExpiresAt(p.at.Add(ConfirmationTTL)).Exec(ctx)
	if err != nil {
		return fmt.Errorf("%w: keep: %w", ErrStore, err)
	}
	return nil
}

// issued is a stored token.
type issued struct {
	id        int
	chain     string
	binding   binding
	confirmed bool
}

// find returns the consumer's unexpired token; ErrNotFound for an unknown, expired or other
// consumer's token (one answer for all three, so a token's existence never leaks).
func (t *tokenStore) find(ctx context.Context, consumerID int, token string, now time.Time) (issued, error) {
	hash := sha256.Sum256([]byte(token))
	row, err := t.db.ConfirmationToken.Query().Where(confirmationtoken.TokenHash(hash[:]), confirmationtoken.ConsumerID(consumerID),
		confirmationtoken.ExpiresAtGT(now)).Only(ctx)
	if ent.IsNotFound(err) {
		return issued{}, fmt.Errorf("%w: confirmation token not found or expired", ErrNotFound)
	}
	if err != nil {
		return issued{}, fmt.Errorf("%w: find: %w", ErrStore, err)
	}
	var bd binding
	raw, err := json.Marshal(row.Binding)
	if err == nil {
		err = json.Unmarshal(raw, &bd)
	}
	if err != nil {
		return issued{}, fmt.Errorf("confirmation token %d: binding: %w", row.ID, err)
	}
	return issued{id: row.ID, chain: row.Chain, binding: bd, confirmed: row.ConfirmedAt != nil}, nil
}

// confirm records that the token's build was confirmed; it reports whether this call did it.
func (t *tokenStore) confirm(ctx context.Context, id int, now time.Time) (bool, error) {
	n, err := t.db.ConfirmationToken.Update().Where(confirmationtoken.ID(id), confirmationtoken.ConfirmedAtIsNil()).SetConfirmedAt(now).Save(ctx)
	if err != nil {
		return false, fmt.Errorf("%w: confirm: %w", ErrStore, err)
	}
	return n == 1, nil
}

func toMap(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(raw, &m)
}

// Sweep deletes the expired confirmation tokens and reports how many.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	n, err := s.tokens.db.ConfirmationToken.Delete().Where(confirmationtoken.ExpiresAtLT(s.now())).Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("%w: sweep: %w", ErrStore, err)
	}
	return n, nil
}
