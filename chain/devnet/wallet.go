package devnet

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Wallet is a test wallet that does what the partner contract asks of a caller with a build: sign
// each EVM transaction exactly as returned, send them in order, and wait for each receipt before
// the next. For tests and tools against a devnet or anvil.
type Wallet struct {
	Key     *ecdsa.PrivateKey
	Address common.Address
	Client  *ethclient.Client
}

// BuiltTx is an EVM transaction entry of a build response, as the API returns it.
type BuiltTx struct {
	ID                   string `json:"id"`
	ChainID              int64  `json:"chainId"`
	From                 string `json:"from"`
	To                   string `json:"to"`
	Data                 string `json:"data"`
	Value                string `json:"value"`
	Gas                  uint64 `json:"gas"`
	MaxFeePerGas         string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas"`
	Nonce                uint64 `json:"nonce"`
}

// NewWallet dials rpcURL for the key (0x and 64 hex digits).
func NewWallet(ctx context.Context, rpcURL, keyHex string) (*Wallet, error) {
	key, err := crypto.HexToECDSA(strings0x(keyHex))
	if err != nil {
		return nil, fmt.Errorf("wallet: key: %w", err)
	}
	client, err := ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		return nil, fmt.Errorf("wallet: dial: %w", err)
	}
	return &Wallet{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey), Client: client}, nil
}

func strings0x(s string) string {
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return s[2:]
	}
	return s
}

// Close closes the wallet's connection.
func (w *Wallet) Close() { w.Client.Close() }

// SendBuild signs and sends the transactions of a build response body in order, waiting for each
// receipt; a reverted transaction stops the sequence. It returns the hashes and receipts sent.
func (w *Wallet) SendBuild(ctx context.Context, body []byte) ([]common.Hash, []*types.Receipt, error) {
	var b struct {
		Transactions []BuiltTx `json:"transactions"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, nil, fmt.Errorf("wallet: build response: %w", err)
	}
	var hashes []common.Hash
	var receipts []*types.Receipt
	for _, tx := range b.Transactions {
		h, rc, err := w.Send(ctx, tx)
		if err != nil {
			return hashes, receipts, err
		}
		hashes, receipts = append(hashes, h), append(receipts, rc)
		if rc.Status != types.ReceiptStatusSuccessful {
			break
		}
	}
	return hashes, receipts, nil
}

// Send signs one transaction entry exactly as built (EIP-1559), sends it and waits for its receipt.
func (w *Wallet) Send(ctx context.Context, tx BuiltTx) (common.Hash, *types.Receipt, error) {
	if !common.IsHexAddress(tx.From) || common.HexToAddress(tx.From) != w.Address {
		return common.Hash{}, nil, fmt.Errorf("wallet: transaction %s is from %s, the wallet is %s", tx.ID, tx.From, w.Address)
	}
	var nums [3]*big.Int
	for i, s := range []string{tx.Value, tx.MaxFeePerGas, tx.MaxPriorityFeePerGas} {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return common.Hash{}, nil, fmt.Errorf("wallet: transaction %s: %q is not a decimal", tx.ID, s)
		}
		nums[i] = n
	}
	data, err := hexutil.Decode(tx.Data)
	if err != nil {
		return common.Hash{}, nil, fmt.Errorf("wallet: transaction %s: data: %w", tx.ID, err)
	}
	to := common.HexToAddress(tx.To)
	chainID := big.NewInt(tx.ChainID)
	signed, err := types.SignNewTx(w.Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, Nonce: tx.Nonce, GasTipCap: nums[2], GasFeeCap: nums[1], Gas: tx.Gas, To: &to, Value: nums[0], Data: data,
	})
	if err != nil {
		return common.Hash{}, nil, fmt.Errorf("wallet: sign %s: %w", tx.ID, err)
	}
	if err := w.Client.SendTransaction(ctx, signed); err != nil {
		return common.Hash{}, nil, fmt.Errorf("wallet: send %s: %w", tx.ID, err)
	}
	rc, err := w.Receipt(ctx, signed.Hash())
	return signed.Hash(), rc, err
}

// Receipt waits up to 30 seconds for a transaction's receipt (a devnet mines pending transactions
// on its own; anvil on every transaction).
func (w *Wallet) Receipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		rc, err := w.Client.TransactionReceipt(ctx, h)
		if err == nil {
			return rc, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return nil, fmt.Errorf("wallet: receipt %s: %w", h, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wallet: no receipt for %s: %w", h, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
