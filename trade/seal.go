package trade

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
)

// ErrQuoteAltered: a Solana swap build's quoteResponse is not a quote this service made for the
// same consumer and chain, as it made it (400 invalid_request): a field was changed, it came from
// another consumer, another chain or another deployment, or its seal is missing.
var ErrQuoteAltered = errors.New("the quote is not one this service made for this consumer and chain, unaltered: fetch a quote again and send it back unchanged")

// sealer seals quotes so that a build can prove the quote it is given is one this service made for
// the same consumer and chain, unaltered: HMAC-SHA256 under a key of the service over the consumer
// id, the chain and the quote's JSON without its seal. Replicas that build each other's quotes
// share the key (PARTNER_SECRET_KEY).
type sealer struct{ key []byte }

// sealLabel separates the quote key from the other uses of the service's secret key.
const sealLabel = "partnerd solana quote seal v1"

// newSealer derives the quote key from the service's secret key.
func newSealer(secret []byte) sealer {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(sealLabel))
	return sealer{key: m.Sum(nil)}
}

// mac is the seal of q (its Seal ignored) for the consumer and the chain.
func (s sealer) mac(consumerID int, chainName string, q SolanaQuote) (string, error) {
	q.Seal = ""
	body, err := json.Marshal(q)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(strconv.Itoa(consumerID) + "\x00" + chainName + "\x00"))
	m.Write(body)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)), nil
}

// seal sets q.Seal.
func (s sealer) seal(consumerID int, chainName string, q *SolanaQuote) error {
	mac, err := s.mac(consumerID, chainName, *q)
	if err != nil {
		return err
	}
	q.Seal = mac
	return nil
}

// verify checks q's seal: ErrQuoteAltered unless it is the seal this service gives q for the
// consumer and the chain.
func (s sealer) verify(consumerID int, chainName string, q SolanaQuote) error {
	want, err := s.mac(consumerID, chainName, q)
	if err != nil {
		return err
	}
	if q.Seal == "" || !hmac.Equal([]byte(want), []byte(q.Seal)) {
		return ErrQuoteAltered
	}
	return nil
}

// WithQuoteKey seals Solana quotes with a key derived from secret (the service's secret key); the
// replicas that build each other's quotes must share it. Without it, a Service seals with a key of
// its own, made at New.
func WithQuoteKey(secret []byte) Option {
	return func(s *Service) { s.sealer = newSealer(secret) }
}
