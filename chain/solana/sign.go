package solana

import (
	"encoding/base64"
	"errors"
	"fmt"

	sol "github.com/gagliardetto/solana-go"
)

// ErrSign wraps every SignTransaction failure: a payload that is not a serialized transaction, a
// key that is not a Solana secret key, or a key that is not one of the transaction's signers.
var ErrSign = errors.New("sign transaction")

// SignTransaction signs a serialized transaction (base64, as a build returns it) with secret keys
// (each the base58 encoding of Solana's 64-byte form, seed then public key, as solana-keygen and
// wallets export it) and returns it serialized again, base64, ready for sendTransaction.
//
// It is for partner-side programs and for tests: the service itself never signs. Each key must
// belong to one of the transaction's required signers; a signer without a key keeps its signature
// slot as it was (partial signing), and the message is never changed. No error contains a key.
// Errors wrap ErrSign.
func SignTransaction(payload string, keys ...string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", fmt.Errorf("%w: the payload is not base64", ErrSign)
	}
	tx, err := decodeTx(raw)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSign, err)
	}
	signers := tx.Message.Signers()
	byKey := make(map[sol.PublicKey]*sol.PrivateKey, len(keys))
	for i, k := range keys {
		pk, err := sol.PrivateKeyFromBase58(k)
		if err != nil {
			return "", fmt.Errorf("%w: key %d is not a base58 64-byte Solana secret key", ErrSign, i)
		}
		pub := pk.PublicKey()
		if !signers.Has(pub) {
			return "", fmt.Errorf("%w: key %d (%s) is not a signer of the transaction", ErrSign, i, pub)
		}
		byKey[pub] = &pk
	}
	if _, err := tx.PartialSign(func(k sol.PublicKey) *sol.PrivateKey { return byKey[k] }); err != nil {
		return "", fmt.Errorf("%w: %v", ErrSign, err)
	}
	out, err := tx.MarshalBinary()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSign, err)
	}
	return base64.StdEncoding.EncodeToString(out), nil
}
