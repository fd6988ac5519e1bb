// Package devnet is the local EVM devnet: an in-process go-ethereum simulated chain running the
// official Uniswap V2 contracts (factory, pair, Router02), WETH9 and the liquidity staker's
// StakingRewards farms from their npm packages, plus our own tokens and Multicall3 (see contracts/,
// compiled or copied into artifacts/ and bound in bindings/).
//
// Gotchas the helpers here take care of: the chain's fork rules are pinned to a released fork
// (the simulated backend's default enables unreleased rules), every transaction carries an explicit
// nonce, and Commit is only called once the pool reports the sender's pending nonce, so a block is
// never sealed before the transaction reached the pool.
package devnet

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// ChainID of the devnet.
const ChainID = 1337

// ChainConfig is the devnet's chain configuration, spelled out field by field: every fork up to and
// including Prague active from genesis and nothing later. (go-ethereum's dev default also enables
// Osaka and forks not yet released, whose rules change gas costs.)
func ChainConfig() *params.ChainConfig {
	zero := uint64(0)
	return &params.ChainConfig{
		ChainID:                 big.NewInt(ChainID),
		HomesteadBlock:          big.NewInt(0),
		EIP150Block:             big.NewInt(0),
		EIP155Block:             big.NewInt(0),
		EIP158Block:             big.NewInt(0),
		ByzantiumBlock:          big.NewInt(0),
		ConstantinopleBlock:     big.NewInt(0),
		PetersburgBlock:         big.NewInt(0),
		IstanbulBlock:           big.NewInt(0),
		MuirGlacierBlock:        big.NewInt(0),
		BerlinBlock:             big.NewInt(0),
		LondonBlock:             big.NewInt(0),
		ArrowGlacierBlock:       big.NewInt(0),
		GrayGlacierBlock:        big.NewInt(0),
		TerminalTotalDifficulty: big.NewInt(0),
		ShanghaiTime:            &zero,
		CancunTime:              &zero,
		PragueTime:              &zero,
		BlobScheduleConfig: &params.BlobScheduleConfig{
			Cancun: params.DefaultCancunBlobConfig,
			Prague: params.DefaultPragueBlobConfig,
		},
	}
}

// NewBackend starts a simulated chain with ChainConfig's fork rules and the given genesis balances.
//
// Every chain it starts is a new chain with a genesis block of its own: block 0 carries the start
// time and 32 random bytes of extra data, so its hash differs from any other devnet's (as anvil's
// genesis, stamped with its start time, does). go-ethereum's simulated genesis is otherwise the same
// on every start, and an indexer that remembers a previous devnet's chain could not tell the new one
// from a reorganised old one.
func NewBackend(alloc types.GenesisAlloc, options ...func(*node.Config, *ethconfig.Config)) *simulated.Backend {
	pin := func(_ *node.Config, ec *ethconfig.Config) {
		ec.Genesis.Config = ChainConfig()
		ec.Genesis.Timestamp = uint64(time.Now().Unix())
		ec.Genesis.ExtraData = make([]byte, 32)
		_, _ = rand.Read(ec.Genesis.ExtraData) // never fails (crypto/rand)
	}
	return simulated.NewBackend(alloc, append([]func(*node.Config, *ethconfig.Config){pin}, options...)...)
}

// Backend is the part of *simulated.Backend the helpers use.
type Backend interface {
	Client() simulated.Client
	Commit() common.Hash
}

// Account signs transactions for one key and tracks its nonce itself.
type Account struct {
	Address common.Address
	key     *ecdsa.PrivateKey
	nonce   uint64
}

// NewAccount reads the account's pending nonce once; from then on the Account assigns nonces.
func NewAccount(ctx context.Context, client simulated.Client, key *ecdsa.PrivateKey) (*Account, error) {
	addr := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := client.PendingNonceAt(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("devnet: nonce of %s: %w", addr, err)
	}
	return &Account{Address: addr, key: key, nonce: nonce}, nil
}

// Send signs one transaction with the account's next nonce (to nil creates a contract), seals it
// into its own block and returns the receipt; a reverted transaction is an error.
//
// The gas limit is the estimate plus a margin: the estimate runs against the pending block, whose
// timestamp can differ from the sealed one, and timestamp-dependent paths (the pair's cumulative
// price update) then cost more than estimated.
func (a *Account) Send(ctx context.Context, b Backend, to *common.Address, value *big.Int, data []byte) (*types.Receipt, error) {
	client := b.Client()
	if value == nil {
		value = new(big.Int)
	}
	gas, err := client.EstimateGas(ctx, ethereum.CallMsg{From: a.Address, To: to, Value: value, Data: data})
	if err != nil {
		return nil, fmt.Errorf("devnet: estimate gas for %s: %w", describe(to), err)
	}
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("devnet: head: %w", err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, fmt.Errorf("devnet: gas tip: %w", err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	tx, err := types.SignNewTx(a.key, types.LatestSignerForChainID(big.NewInt(ChainID)), &types.DynamicFeeTx{
		ChainID:   big.NewInt(ChainID),
		Nonce:     a.nonce,
		GasTipCap: tip,
		GasFeeCap: feeCap,
		Gas:       gas + gas/4 + 50_000,
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		return nil, fmt.Errorf("devnet: sign: %w", err)
	}
	if err := client.SendTransaction(ctx, tx); err != nil {
		return nil, fmt.Errorf("devnet: send %s from %s (nonce %d): %w", describe(to), a.Address, a.nonce, err)
	}
	a.nonce++
	if err := waitPendingNonce(ctx, client, a.Address, a.nonce); err != nil {
		return nil, err
	}
	b.Commit()
	receipt, err := client.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		return nil, fmt.Errorf("devnet: receipt of %s: %w", tx.Hash(), err)
	}
	if receipt.Status != types.ReceiptStatusSuccessful {
		return receipt, fmt.Errorf("devnet: transaction %s from %s to %s reverted (gas used %d of %d)",
			tx.Hash(), a.Address, describe(to), receipt.GasUsed, tx.Gas())
	}
	return receipt, nil
}

// PoolReport says what the node knows of addr's transactions, for the error of a transaction that
// did not reach the pool: its mined and pending nonces and, from a client that exposes its RPC
// connection (anvil's; not the in-process backend's), the pooled transactions by nonce from
// txpool_inspect.
func PoolReport(client simulated.Client, addr common.Address) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	mined, err1 := client.NonceAt(ctx, addr, nil)
	pending, err2 := client.PendingNonceAt(ctx, addr)
	report := fmt.Sprintf("mined nonce %d, pending nonce %d", mined, pending)
	if err := errors.Join(err1, err2); err != nil {
		report += fmt.Sprintf(" (%v)", err)
	}
	raw, ok := client.(interface{ Client() *rpc.Client })
	if !ok {
		return report
	}
	var pool map[string]map[string]map[string]string // pending/queued -> sender -> nonce -> summary
	if err := raw.Client().CallContext(ctx, &pool, "txpool_inspect"); err != nil {
		return report + fmt.Sprintf("; txpool_inspect: %v", err)
	}
	for _, state := range []string{"pending", "queued"} {
		for sender, txs := range pool[state] {
			if common.HexToAddress(sender) == addr {
				report += fmt.Sprintf("; %s in the pool: %v", state, txs)
			}
		}
	}
	return report
}

func describe(to *common.Address) string {
	if to == nil {
		return "contract creation"
	}
	return to.Hex()
}

// Transact calls a contract (calldata from a binding's Pack function) and seals the transaction.
func (a *Account) Transact(ctx context.Context, b Backend, to common.Address, value *big.Int, calldata []byte) (*types.Receipt, error) {
	return a.Send(ctx, b, &to, value, calldata)
}

// Deploy creates a contract from its binding metadata and packed constructor arguments.
func (a *Account) Deploy(ctx context.Context, b Backend, meta *bind.MetaData, constructorInput []byte) (common.Address, error) {
	code := append(common.FromHex(meta.Bin), constructorInput...)
	receipt, err := a.Send(ctx, b, nil, nil, code)
	if err != nil {
		return common.Address{}, err
	}
	return receipt.ContractAddress, nil
}

// waitPendingNonce polls until the pool reports want as addr's pending nonce, that is until the
// transaction just sent is in the pool and the next Commit includes it.
func waitPendingNonce(ctx context.Context, client simulated.Client, addr common.Address, want uint64) error {
	// Generous: on a loaded machine (CI runs many nodes and -race tests at once) anvil can take
	// seconds to answer.
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		got, err := client.PendingNonceAt(ctx, addr)
		if err != nil {
			return fmt.Errorf("devnet: pending nonce of %s: %w", addr, err)
		}
		if got >= want {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("devnet: transaction with nonce %d from %s never reached the pool (%s): %w", want-1, addr, PoolReport(client, addr), ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Addresses of the core devnet contracts.
type Addresses struct {
	USD           common.Address // USD stablecoin, 6 decimals, owned by the deployer
	WrappedNative common.Address // the official WETH9 ("Wrapped Ether", WETH)
	Factory       common.Address // the official UniswapV2Factory (feeToSetter: the deployer; no protocol fee)
	Router        common.Address // the official UniswapV2Router02
	Multicall3    common.Address
	// StakingRewardsFactory is the official liquidity staker's factory of the seeded farms (owned by
	// the deployer, rewards in HRV). Seed deploys it; Deploy does not (zero).
	StakingRewardsFactory common.Address
}

// Deploy deploys the core contracts from the deployer key: the USD stablecoin, the wrapped native
// token (the official WETH9), the official Uniswap V2 factory (with the deployer as feeToSetter)
// and Router02, and Multicall3. One block per transaction. No farms: see Seed.
func Deploy(ctx context.Context, b Backend, deployer *ecdsa.PrivateKey) (Addresses, error) {
	acct, err := NewAccount(ctx, b.Client(), deployer)
	if err != nil {
		return Addresses{}, err
	}
	return acct.DeployCore(ctx, b)
}

// DeployCore is Deploy for an Account already in use.
func (a *Account) DeployCore(ctx context.Context, b Backend) (Addresses, error) {
	var out Addresses
	var err error
	step := func(dst *common.Address, name string, meta *bind.MetaData, input []byte) {
		if err != nil {
			return
		}
		if *dst, err = a.Deploy(ctx, b, meta, input); err != nil {
			err = fmt.Errorf("devnet: deploy %s: %w", name, err)
		}
	}
	step(&out.USD, "USD", &bindings.TokenMetaData, bindings.NewToken().PackConstructor("Devnet USD", "USDD", 6))
	step(&out.WrappedNative, "WETH9", &bindings.WETH9MetaData, nil)
	step(&out.Factory, "factory", &bindings.UniswapV2FactoryMetaData, bindings.NewUniswapV2Factory().PackConstructor(a.Address))
	if err == nil {
		step(&out.Router, "router", &bindings.UniswapV2Router02MetaData,
			bindings.NewUniswapV2Router02().PackConstructor(out.Factory, out.WrappedNative))
	}
	step(&out.Multicall3, "Multicall3", &bindings.Multicall3MetaData, nil)
	if err != nil {
		return Addresses{}, err
	}
	if out.USD == (common.Address{}) || out.Multicall3 == (common.Address{}) {
		return Addresses{}, errors.New("devnet: deploy returned no contract address")
	}
	return out, nil
}
