package api

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// wallet is a test wallet that does what the contract asks of a caller: sign each transaction of
// a build as returned, send them in order, and wait for each receipt before the next.
type wallet struct {
	t      testing.TB
	key    *ecdsa.PrivateKey
	addr   common.Address
	client *ethclient.Client
}

func newWallet(t testing.TB, rpcURL, keyHex string) *wallet {
	t.Helper()
	key, err := crypto.HexToECDSA(keyHex[2:])
	if err != nil {
		t.Fatal(err)
	}
	client, err := ethclient.DialContext(t.Context(), rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return &wallet{t: t, key: key, addr: crypto.PubkeyToAddress(key.PublicKey), client: client}
}

// sendBuild signs and sends a build response's transactions in order, waiting for each receipt,
// and returns the hashes and receipts. A reverted transaction stops the sequence.
func (w *wallet) sendBuild(body string) ([]common.Hash, []*types.Receipt) {
	w.t.Helper()
	var b BuildResponse
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		w.t.Fatal(err)
	}
	var hashes []common.Hash
	var receipts []*types.Receipt
	for _, tx := range b.Transactions {
		h, rc := w.send(tx)
		hashes, receipts = append(hashes, h), append(receipts, rc)
		if rc.Status != types.ReceiptStatusSuccessful {
			break
		}
	}
	return hashes, receipts
}

// send signs one transaction entry exactly as built and waits for its receipt.
func (w *wallet) send(tx Transaction) (common.Hash, *types.Receipt) {
	w.t.Helper()
	ctx := w.t.Context()
	if !common.IsHexAddress(tx.From) || common.HexToAddress(tx.From) != w.addr {
		w.t.Fatalf("transaction %s is from %s, the wallet is %s", tx.ID, tx.From, w.addr)
	}
	to := common.HexToAddress(tx.To)
	num := func(s string) *big.Int {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			w.t.Fatalf("transaction %s: %q is not a decimal", tx.ID, s)
		}
		return n
	}
	signed, err := types.SignNewTx(w.key, types.LatestSignerForChainID(big.NewInt(tx.ChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(tx.ChainID), Nonce: uint64(*tx.Nonce), GasTipCap: num(tx.MaxPriorityFeePerGas), GasFeeCap: num(tx.MaxFeePerGas),
		Gas: uint64(tx.Gas), To: &to, Value: num(tx.Value), Data: hexutil.MustDecode(tx.Data),
	})
	if err != nil {
		w.t.Fatal(err)
	}
	if err := w.client.SendTransaction(ctx, signed); err != nil {
		w.t.Fatalf("send %s: %v", tx.ID, err)
	}
	return signed.Hash(), w.receipt(signed.Hash())
}

// receipt waits for a transaction's receipt (the devnet mines pending transactions on its own).
func (w *wallet) receipt(h common.Hash) *types.Receipt {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.t.Context(), 30*time.Second)
	defer cancel()
	for {
		rc, err := w.client.TransactionReceipt(ctx, h)
		if err == nil {
			return rc
		}
		if err != ethereum.NotFound {
			w.t.Fatalf("receipt %s: %v", h, err)
		}
		select {
		case <-ctx.Done():
			w.t.Fatalf("no receipt for %s", h)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
