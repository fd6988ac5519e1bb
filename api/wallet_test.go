package api

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/partner-platform/partnerd/chain/devnet"
)

// wallet is devnet.Wallet failing the test on errors.
type wallet struct {
	*devnet.Wallet
	t testing.TB
}

func newWallet(t testing.TB, rpcURL, keyHex string) *wallet {
	t.Helper()
	w, err := devnet.NewWallet(t.Context(), rpcURL, keyHex)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return &wallet{Wallet: w, t: t}
}

// sendBuild signs and sends a build response's transactions in order, waiting for each receipt.
func (w *wallet) sendBuild(body string) ([]common.Hash, []*types.Receipt) {
	w.t.Helper()
	hashes, receipts, err := w.SendBuild(w.t.Context(), []byte(body))
	if err != nil {
		w.t.Fatal(err)
	}
	return hashes, receipts
}
