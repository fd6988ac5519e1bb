package devnet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// Market is what Seed deployed: the core contracts, the extra tokens, the pools and their farms.
type Market struct {
	Core   Addresses     // USD stablecoin, wrapped native, factory, router, Multicall3, StakingRewardsFactory
	Tokens []SeededToken // the tokens deployed besides the core USD stablecoin and wrapped native (HRV, the farms' reward, last)
	Pools  []SeededPool  // every pool with liquidity, the WETH/USD pool first
	Farms  []SeededFarm  // one StakingRewards farm per pool, in the order of Pools
	// InitCodeHash is keccak256 of the official pair's init code (bindings.UniswapV2PairMetaData.Bin),
	// the factory's CREATE2 init code hash: mainnet's, chain.UniswapV2InitCodeHash.
	InitCodeHash common.Hash
	// Staker is the one account that stakes at seeding (user 7): it holds StakerLP of the AUR/WETH
	// pool (Pools[1]) in its wallet and StakerStaked in that pool's farm (Farms[1]), so that the
	// documented LP examples (remove, unstake, harvest, compound) have a position to act on.
	Staker                 common.Address
	StakerLP, StakerStaked *big.Int

	// V3 is the official Uniswap V3 set, deployed after everything above (whose addresses are
	// the same as without it); V3Pools its pools, the first three on pairs that V2 pools also
	// have, at the V2 pools' seeded prices; V3Incentive the staker's incentive, with one deployer
	// position staked in it.
	V3          V3Addresses
	V3Pools     []SeededV3Pool
	V3Incentive V3Incentive
}

// The seeded stake: user 7 gets 10 LP of AUR/WETH from the deployer and stakes 6 of them.
const (
	stakerAccount    = 7
	stakerPool       = 1 // AUR/WETH
	stakerWholeLP    = 10
	stakerWholeStake = 6
)

// SeededToken is one ERC-20 deployed by the seeding.
type SeededToken struct {
	Address  common.Address
	Symbol   string
	Name     string
	Decimals uint8
}

// SeededPool is one Uniswap V2 pair created and funded by the seeding; Token0 < Token1 as the
// factory orders them.
type SeededPool struct {
	Address, Token0, Token1 common.Address
}

// SeededFarm is one official StakingRewards contract deployed by the seeding's StakingRewardsFactory:
// it pays RewardToken (HRV) to whoever stakes the pool's LP token, at RewardRate for
// farmRewardsDuration (60 days) from the seeding's last block. Nobody stakes at seeding.
type SeededFarm struct {
	Address      common.Address // the StakingRewards contract
	StakingToken common.Address // the pool it farms (its LP token is the pair itself)
	RewardToken  common.Address // HRV
	RewardRate   *big.Int       // reward base units per second, shared among the stakers
}

// Symbols of the core tokens, as deployed by the seeding (the same as Deploy's), and of the farms'
// reward token.
const (
	usdSymbol    = "USDD"
	wethSymbol   = "WETH"
	rewardSymbol = "HRV"
)

// Farms: each pays farmRewardPerSecond whole HRV per second for the official StakingRewards'
// rewardsDuration (60 days), so its reward is farmRewardPerSecond * farmRewardsDuration HRV; a lone
// staker earns a whole HRV (0.5 USD) per second, several HRV per devnet block.
const (
	farmRewardPerSecond = 1
	farmRewardsDuration = 60 * 24 * 60 * 60 // StakingRewards.rewardsDuration, in seconds
)

// farmGenesisDelay is how far the StakingRewardsFactory's genesis lies ahead of the chain's clock
// (the later of the head's timestamp and the wall clock) when it is deployed. Its constructor wants
// a genesis no earlier than its own block, and notifyRewardAmounts a block no earlier than the
// genesis: on a chain that stamps a block at least a second after its parent (the simulated chain),
// the notification, three rounds later, is past it; anvil stamps blocks with the wall clock, and
// Seed waits for it.
const farmGenesisDelay = 2

// holding is a mint of whole tokens to the account at index acct.
type holding struct {
	acct  int
	whole int64
}

// tokenSpec is one seeded token; holders are distinct sets among the accounts.
type tokenSpec struct {
	name, symbol string
	decimals     uint8
	holders      []holding
}

// poolSpec is one seeded pool: whole units of each side, by symbol.
type poolSpec struct {
	a, b           string
	wholeA, wholeB int64
}

// deployerUSD is what the deployer mints itself: enough for every USD pool plus a reserve.
const deployerUSD = 10_000_000

var (
	// usdHolders hold the stablecoin besides the deployer: every trader and three users.
	usdHolders = []holding{{1, 100_000}, {2, 100_000}, {3, 100_000}, {4, 100_000}, {5, 5_000}, {6, 2_500}, {7, 1_000}}

	// seedTokens differ in decimals and holders. Prices (see seedPools): AUR 1.5 USD, NIM 0.25 USD,
	// QRTZ 0.06 USD, EMB 42 USD, HRV 0.5 USD, with 1 ETH = 3,000 USD. HRV ("Harvest", last) is the
	// farms' reward; the StakingRewardsFactory's HRV is minted besides these holdings.
	seedTokens = []tokenSpec{
		{"Aurora", "AUR", 18, []holding{{0, 1_000_000}, {1, 20_000}, {2, 20_000}, {5, 1_200}, {6, 300}}},
		{"Nimbus", "NIM", 18, []holding{{0, 5_000_000}, {2, 100_000}, {3, 100_000}, {7, 50_000}}},
		{"Quartz", "QRTZ", 9, []holding{{0, 20_000_000}, {3, 500_000}, {4, 500_000}, {5, 25_000}, {8, 10_000}, {9, 7_777}}},
		{"Ember", "EMB", 8, []holding{{0, 50_000}, {1, 500}, {4, 500}, {9, 12}}},
		{"Harvest", rewardSymbol, 18, []holding{{0, 1_100_000}, {1, 10_000}, {3, 10_000}}},
	}

	// seedPools: WETH/USD first, so native has a USD price.
	seedPools = []poolSpec{
		{wethSymbol, usdSymbol, 1_000, 3_000_000},
		{"AUR", wethSymbol, 400_000, 200},
		{"AUR", usdSymbol, 100_000, 150_000},
		{"NIM", usdSymbol, 2_000_000, 500_000},
		{"QRTZ", wethSymbol, 5_000_000, 100},
		{"EMB", usdSymbol, 10_000, 420_000},
		{rewardSymbol, usdSymbol, 1_000_000, 500_000},
	}
)

var (
	bToken     = bindings.NewToken()
	bFactory   = bindings.NewUniswapV2Factory()
	bPair      = bindings.NewUniswapV2Pair()
	bRouter    = bindings.NewUniswapV2Router02()
	bFarms     = bindings.NewStakingRewardsFactory()
	bFarm      = bindings.NewStakingRewards()
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	// farDeadline is the deadline of every router call: the devnet's clock is not the point.
	farDeadline = new(big.Int).SetUint64(1 << 62)
)

// wholeUnits is whole tokens of the given decimals.
func wholeUnits(whole int64, decimals uint8) *big.Int {
	return new(big.Int).Mul(big.NewInt(whole), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil))
}

// seedToken is what the seeding knows about a token, core ones included.
type seedToken struct {
	addr     common.Address
	decimals uint8
}

// Seed deploys the core contracts and a small market on any Backend (the local devnet, or anvil in
// tests) from accounts laid out as the local ones: 0 deployer (owns the tokens, the liquidity and
// the farms' factory, and needs about 1,500 ETH for the wrapped native side of the pools), 1..4
// traders (hold USD and approve the router), 5..9 users (some hold tokens; none trades; user 7 alone
// stakes: Market.Staker). It takes five rounds of transactions: deployments; mints and approvals;
// pools and farms; the farms' start with the staker's LP and approval; the staker's stake. Then
// three more for Uniswap V3, after all of the V2 market so that its addresses stay as they were:
// the V3 contracts with the deployer's wrapped ETH and approvals (the traders approve SwapRouter02);
// the staker's incentive and the V3 pools with their positions; the stake of one position in the
// incentive. Every transaction of a round is independent of the others in it, so gas is estimated
// for each against the chain before the round; on a chain that seals blocks on Commit, a round is
// one block, and a few empty blocks may precede the last one (it waits for the incentive's start).
//
// The contracts are the official Uniswap V2 factory, pair and Router02, WETH9, the liquidity
// staker's StakingRewardsFactory and the official Uniswap V3 set (DeployV3's); the tokens and
// Multicall3 are ours. Pool addresses are computed offline from the init code hashes
// (chain.UniswapV2PairAddress, chain.UniswapV3PoolAddress), as on mainnet, and checked against the
// factories' getPair and getPool.
func Seed(ctx context.Context, b Backend, accounts []*Account) (Market, error) {
	var m Market
	wrap := func(step string, err error) error { return fmt.Errorf("devnet: seed: %s: %w", step, err) }
	if len(accounts) < numLocalAccounts {
		return m, wrap("accounts", fmt.Errorf("%d accounts, want %d", len(accounts), numLocalAccounts))
	}
	deployer, traders, all := accounts[0], accounts[firstTrader:firstUser], accounts
	client := b.Client()
	m.InitCodeHash = crypto.Keccak256Hash(common.FromHex(bindings.UniswapV2PairMetaData.Bin))

	// The farms' genesis: a little ahead of the chain's clock (see farmGenesisDelay).
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return m, wrap("head", err)
	}
	genesis := max(head.Time, uint64(time.Now().Unix())) + farmGenesisDelay

	// Block 1: every contract. The router's constructor only stores the factory and wrapped
	// native addresses, and the StakingRewardsFactory's the reward token's: all known in advance
	// from the deployer's nonces.
	bt, err := newBatch(ctx, b)
	if err != nil {
		return m, wrap("deploy", err)
	}
	deploy := func(name string, meta *bind.MetaData, input []byte) common.Address {
		at := crypto.CreateAddress(deployer.Address, deployer.nonce)
		if err == nil {
			code := append(common.FromHex(meta.Bin), input...)
			err = bt.add(ctx, deployer, nil, nil, code, "deploy "+name)
		}
		return at
	}
	m.Core.USD = deploy("USD", &bindings.TokenMetaData, bToken.PackConstructor("Devnet USD", usdSymbol, 6))
	m.Core.WrappedNative = deploy("WETH9", &bindings.WETH9MetaData, nil)
	m.Core.Factory = deploy("factory", &bindings.UniswapV2FactoryMetaData, bFactory.PackConstructor(deployer.Address))
	m.Core.Router = deploy("router", &bindings.UniswapV2Router02MetaData, bRouter.PackConstructor(m.Core.Factory, m.Core.WrappedNative))
	m.Core.Multicall3 = deploy("Multicall3", &bindings.Multicall3MetaData, nil)
	for _, ts := range seedTokens {
		addr := deploy(ts.symbol, &bindings.TokenMetaData, bToken.PackConstructor(ts.name, ts.symbol, ts.decimals))
		m.Tokens = append(m.Tokens, SeededToken{Address: addr, Symbol: ts.symbol, Name: ts.name, Decimals: ts.decimals})
	}
	reward := m.Tokens[len(m.Tokens)-1].Address // HRV
	m.Core.StakingRewardsFactory = deploy("StakingRewardsFactory", &bindings.StakingRewardsFactoryMetaData,
		bFarms.PackConstructor(reward, new(big.Int).SetUint64(genesis)))
	if err != nil {
		return m, wrap("deploy", err)
	}
	receipts, err := bt.seal(ctx)
	if err != nil {
		return m, wrap("deploy", err)
	}
	for _, rc := range receipts {
		if rc.ContractAddress == (common.Address{}) {
			return m, wrap("deploy", errors.New("a deployment returned no contract address"))
		}
	}

	tokens := map[string]seedToken{usdSymbol: {m.Core.USD, 6}, wethSymbol: {m.Core.WrappedNative, 18}}
	for _, t := range m.Tokens {
		tokens[t.Symbol] = seedToken{t.Address, t.Decimals}
	}

	// Block 2: mints to the deployer and the holders, and every farm's reward to the
	// StakingRewardsFactory; approvals of the router by the deployer and the traders.
	if bt, err = newBatch(ctx, b); err != nil {
		return m, wrap("mint", err)
	}
	mint := func(token seedToken, hs []holding) {
		for _, h := range hs {
			if err == nil {
				err = bt.add(ctx, deployer, &token.addr, nil, bToken.PackMint(all[h.acct].Address, wholeUnits(h.whole, token.decimals)), "mint")
			}
		}
	}
	mint(tokens[usdSymbol], append([]holding{{0, deployerUSD}}, usdHolders...))
	for _, ts := range seedTokens {
		mint(tokens[ts.symbol], ts.holders)
	}
	farmReward := wholeUnits(farmRewardPerSecond*farmRewardsDuration, 18)
	if err == nil {
		total := new(big.Int).Mul(farmReward, big.NewInt(int64(len(seedPools))))
		err = bt.add(ctx, deployer, &reward, nil, bToken.PackMint(m.Core.StakingRewardsFactory, total), "mint the farms' rewards")
	}
	for _, a := range append([]*Account{deployer}, traders...) {
		for sym, t := range tokens {
			if err == nil && (sym != wethSymbol || a != deployer) {
				err = bt.add(ctx, a, &t.addr, nil, bToken.PackApprove(m.Core.Router, maxUint256), "approve "+sym)
			}
		}
	}
	if err != nil {
		return m, wrap("mint", err)
	}
	if _, err := bt.seal(ctx); err != nil {
		return m, wrap("mint", err)
	}

	// Block 3: the pools, created by the router's addLiquidity (ETH for the wrapped native side),
	// and a farm for each, deployed by the StakingRewardsFactory for the pair's address as CREATE2
	// gives it (the farm does not touch its staking token until someone stakes).
	if bt, err = newBatch(ctx, b); err != nil {
		return m, wrap("pools", err)
	}
	router, farms := m.Core.Router, m.Core.StakingRewardsFactory
	for _, ps := range seedPools {
		a, b := tokens[ps.a], tokens[ps.b]
		amtA, amtB := wholeUnits(ps.wholeA, a.decimals), wholeUnits(ps.wholeB, b.decimals)
		what := "pool " + ps.a + "/" + ps.b
		switch {
		case err != nil:
		case ps.a == wethSymbol:
			err = bt.add(ctx, deployer, &router, amtA, bRouter.PackAddLiquidityETH(b.addr, amtB, amtB, amtA, deployer.Address, farDeadline), what)
		case ps.b == wethSymbol:
			err = bt.add(ctx, deployer, &router, amtB, bRouter.PackAddLiquidityETH(a.addr, amtA, amtA, amtB, deployer.Address, farDeadline), what)
		default:
			err = bt.add(ctx, deployer, &router, nil, bRouter.PackAddLiquidity(a.addr, b.addr, amtA, amtB, amtA, amtB, deployer.Address, farDeadline), what)
		}
		if err != nil {
			break
		}
		pair, perr := pairAddress(m.Core.Factory, m.InitCodeHash, a.addr, b.addr)
		if perr != nil {
			return m, wrap("pools", perr)
		}
		if bytes.Compare(a.addr[:], b.addr[:]) > 0 {
			a, b = b, a
		}
		m.Pools = append(m.Pools, SeededPool{Address: pair, Token0: a.addr, Token1: b.addr})
		err = bt.add(ctx, deployer, &farms, nil, bFarms.PackDeploy(pair, farmReward), "farm of "+what)
	}
	if err != nil {
		return m, wrap("pools", err)
	}
	if _, err := bt.seal(ctx); err != nil {
		return m, wrap("pools", err)
	}
	for i, ps := range seedPools {
		p := m.Pools[i]
		pair, err := callContract(ctx, client, m.Core.Factory, bFactory.PackGetPair(p.Token0, p.Token1), bFactory.UnpackGetPair)
		if err != nil {
			return m, wrap("pools", err)
		}
		if pair != p.Address {
			return m, wrap("pools", fmt.Errorf("getPair of %s/%s = %s, CREATE2 with init code hash %s gives %s", ps.a, ps.b, pair, m.InitCodeHash, p.Address))
		}
		info, err := callContract(ctx, client, farms, bFarms.PackStakingRewardsInfoByStakingToken(p.Address), bFarms.UnpackStakingRewardsInfoByStakingToken)
		if err != nil {
			return m, wrap("farms", err)
		}
		if info.StakingRewards == (common.Address{}) {
			return m, wrap("farms", fmt.Errorf("no farm for %s/%s", ps.a, ps.b))
		}
		m.Farms = append(m.Farms, SeededFarm{Address: info.StakingRewards, StakingToken: p.Address, RewardToken: reward,
			RewardRate: wholeUnits(farmRewardPerSecond, 18)})
	}

	// Block 4: the farms start: notifyRewardAmounts sends each farm its reward and starts its 60
	// days. It needs a block at or after the genesis.
	notify := bFarms.PackNotifyRewardAmounts()
	if err := waitFarmGenesis(ctx, client, deployer.Address, farms, notify, genesis); err != nil {
		return m, wrap("farms", err)
	}
	if bt, err = newBatch(ctx, b); err != nil {
		return m, wrap("farms", err)
	}
	staker, stakePool, stakeFarm := all[stakerAccount], m.Pools[stakerPool].Address, m.Farms[stakerPool].Address
	m.Staker, m.StakerStaked = staker.Address, wholeUnits(stakerWholeStake, 18)
	m.StakerLP = new(big.Int).Sub(wholeUnits(stakerWholeLP, 18), m.StakerStaked)
	err = bt.add(ctx, deployer, &farms, nil, notify, "start the farms")
	if err == nil {
		err = bt.add(ctx, deployer, &stakePool, nil, bToken.PackTransfer(staker.Address, wholeUnits(stakerWholeLP, 18)), "LP for the staker")
	}
	if err == nil {
		err = bt.add(ctx, staker, &stakePool, nil, bToken.PackApprove(stakeFarm, m.StakerStaked), "the staker approves the farm")
	}
	if err != nil {
		return m, wrap("farms", err)
	}
	if _, err := bt.seal(ctx); err != nil {
		return m, wrap("farms", err)
	}

	// Block 5: the staker stakes.
	if bt, err = newBatch(ctx, b); err != nil {
		return m, wrap("stake", err)
	}
	if err := bt.add(ctx, staker, &stakeFarm, nil, bFarm.PackStake(m.StakerStaked), "the staker stakes"); err != nil {
		return m, wrap("stake", err)
	}
	if _, err := bt.seal(ctx); err != nil {
		return m, wrap("stake", err)
	}
	for _, f := range m.Farms {
		rate, err := callContract(ctx, client, f.Address, bFarm.PackRewardRate(), bFarm.UnpackRewardRate)
		if err != nil {
			return m, wrap("farms", err)
		}
		if rate.Cmp(f.RewardRate) != 0 {
			return m, wrap("farms", fmt.Errorf("farm %s pays %s a second, want %s", f.Address, rate, f.RewardRate))
		}
	}

	// Blocks 6 to 8 and on: Uniswap V3.
	symbols := []string{usdSymbol, wethSymbol}
	for _, ts := range seedTokens {
		symbols = append(symbols, ts.symbol)
	}
	if err := seedV3(ctx, b, accounts, &m, tokens, symbols); err != nil {
		return m, err
	}
	return m, nil
}

// pairAddress is chain.UniswapV2PairAddress on go-ethereum types.
func pairAddress(factory common.Address, initCodeHash common.Hash, a, b common.Address) (common.Address, error) {
	s, err := chain.UniswapV2PairAddress(factory.Hex(), initCodeHash.Hex(), a.Hex(), b.Hex())
	if err != nil {
		return common.Address{}, err
	}
	return common.HexToAddress(s), nil
}

// farmGenesisWait bounds how long Seed waits for the chain's clock to reach the farms' genesis.
const farmGenesisWait = 10 * time.Second

// waitFarmGenesis waits until the StakingRewardsFactory's notifyRewardAmounts would succeed, that
// is until the chain's clock has reached the genesis: at once on the simulated chain, whose
// blocks are a second apart at least; within farmGenesisDelay seconds on anvil, whose blocks
// carry the wall clock (and whose gas estimates run in a pending block stamped with it).
func waitFarmGenesis(ctx context.Context, client ethereum.GasEstimator, from, farms common.Address, notify []byte, genesis uint64) error {
	deadline := time.Now().Add(farmGenesisWait)
	for {
		_, err := client.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &farms, Data: notify})
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("notifyRewardAmounts still fails %s after genesis %d: %w", farmGenesisWait, genesis, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Confirmations is the devnet's confirmation depth: a devnet reorganises only when told to (see
// Local.Reorg), and an indexer rolls back a reorg within this depth instead of re-indexing.
const Confirmations = 12

// ChainConfig is the seeded market as a chain entry of the deployment's configuration, served at
// rpcURL: network devnet, chain id ChainID, the seeded stablecoin, wrapped native, Multicall3,
// Uniswap V2 venue (with its init code hash and StakingRewardsFactory) and, when V3 was seeded, the
// Uniswap V3 venue (factory, SwapRouter02, QuoterV2, TickLens, the canonical pool init code hash,
// position manager, staker and migrator), Confirmations and start block 0. Addresses are EIP-55
// checksummed.
func (m Market) ChainConfig(rpcURL string) chain.ChainConfig {
	c := m.Core
	var farms string
	if c.StakingRewardsFactory != (common.Address{}) {
		farms = c.StakingRewardsFactory.Hex()
	}
	venues := map[string]chain.VenueConfig{"uniswap-v2": {
		Factory:               c.Factory.Hex(),
		Router:                c.Router.Hex(),
		FeeBps:                chain.DefaultUniswapV2FeeBps,
		InitCodeHash:          m.InitCodeHash.Hex(),
		StakingRewardsFactory: farms,
	}}
	if v3 := m.V3; v3.Factory != (common.Address{}) {
		venues["uniswap-v3"] = chain.VenueConfig{
			Factory:         v3.Factory.Hex(),
			Router:          v3.SwapRouter02.Hex(),
			Quoter:          v3.QuoterV2.Hex(),
			TickLens:        v3.TickLens.Hex(),
			InitCodeHash:    chain.UniswapV3InitCodeHash,
			PositionManager: v3.PositionManager.Hex(),
			Staker:          v3.Staker.Hex(),
			Migrator:        v3.V3Migrator.Hex(),
		}
	}
	return chain.ChainConfig{
		RPCURLs:        []string{rpcURL},
		ChainID:        ChainID,
		Network:        chain.Devnet,
		WrappedNative:  c.WrappedNative.Hex(),
		USDStablecoins: []chain.Stablecoin{{Address: c.USD.Hex(), Decimals: 6}},
		Confirmations:  Confirmations,
		StartBlock:     0,
		Multicall3:     c.Multicall3.Hex(),
		Venues:         venues,
	}
}

// callContract makes a read-only call at the latest block and unpacks its result with a binding.
func callContract[T any](ctx context.Context, client ethereum.ContractCaller, to common.Address, data []byte, unpack func([]byte) (T, error)) (T, error) {
	var zero T
	out, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		return zero, fmt.Errorf("call %s: %w", to, err)
	}
	v, err := unpack(out)
	if err != nil {
		return zero, fmt.Errorf("call %s: unpack: %w", to, err)
	}
	return v, nil
}

// batch signs transactions from several accounts with explicit nonces and seals them together:
// one Commit for the lot instead of one per transaction.
type batch struct {
	b           Backend
	tip, feeCap *big.Int
	txs         []batchTx
	nonces      map[common.Address]uint64 // the pending nonce each sender reaches once all are pooled
}

type batchTx struct {
	tx   *types.Transaction
	from common.Address
	what string
}

// newBatch prices the batch's transactions from the current head (fee cap: twice its base fee
// plus the tip, as Account.Send does).
func newBatch(ctx context.Context, b Backend) (*batch, error) {
	client := b.Client()
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("head: %w", err)
	}
	tip, err := client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, fmt.Errorf("gas tip: %w", err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	return &batch{b: b, tip: tip, feeCap: feeCap, nonces: map[common.Address]uint64{}}, nil
}

// add estimates and signs one transaction (to nil creates a contract) with a's next nonce. The
// estimate runs against the chain before the batch, so the transaction must not depend on
// another of the same batch (except by a sender's own nonce order, for deployments).
func (bt *batch) add(ctx context.Context, a *Account, to *common.Address, value *big.Int, data []byte, what string) error {
	if value == nil {
		value = new(big.Int)
	}
	gas, err := bt.b.Client().EstimateGas(ctx, ethereum.CallMsg{From: a.Address, To: to, Value: value, Data: data})
	if err != nil {
		return fmt.Errorf("%s: estimate gas: %w", what, err)
	}
	tx, err := types.SignNewTx(a.key, types.LatestSignerForChainID(big.NewInt(ChainID)), &types.DynamicFeeTx{
		ChainID:   big.NewInt(ChainID),
		Nonce:     a.nonce,
		GasTipCap: bt.tip,
		GasFeeCap: bt.feeCap,
		Gas:       gas + gas/4 + 50_000, // margin as in Account.Send
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		return fmt.Errorf("%s: sign: %w", what, err)
	}
	a.nonce++
	bt.nonces[a.Address] = a.nonce
	bt.txs = append(bt.txs, batchTx{tx: tx, from: a.Address, what: what})
	return nil
}

// maxSealRounds bounds the commits seal makes when a block cannot hold the whole batch.
const maxSealRounds = 8

// seal sends the batch, waits until the pool holds all of it, and commits until every
// transaction has a receipt (usually once). A reverted transaction is an error.
func (bt *batch) seal(ctx context.Context) ([]*types.Receipt, error) {
	if a, ok := bt.b.(interface{ Automines() bool }); ok && a.Automines() {
		return bt.sealOneByOne(ctx)
	}
	client := bt.b.Client()
	for _, t := range bt.txs {
		if err := client.SendTransaction(ctx, t.tx); err != nil {
			return nil, fmt.Errorf("%s: send from %s (nonce %d): %w", t.what, t.from, t.tx.Nonce(), err)
		}
	}
	for addr, nonce := range bt.nonces {
		if err := waitPendingNonce(ctx, client, addr, nonce); err != nil {
			return nil, err
		}
	}
	receipts := make([]*types.Receipt, len(bt.txs))
	for round := 0; ; round++ {
		if round == maxSealRounds {
			return nil, fmt.Errorf("%d transactions still unmined after %d blocks", countNil(receipts), round)
		}
		bt.b.Commit()
		for i, t := range bt.txs {
			if receipts[i] != nil {
				continue
			}
			rc, err := client.TransactionReceipt(ctx, t.tx.Hash())
			switch {
			case errors.Is(err, ethereum.NotFound):
				continue
			case err != nil:
				return nil, fmt.Errorf("%s: receipt of %s: %w", t.what, t.tx.Hash(), err)
			case rc.Status != types.ReceiptStatusSuccessful:
				return nil, fmt.Errorf("%s: transaction %s from %s reverted (gas used %d of %d)", t.what, t.tx.Hash(), t.from, rc.GasUsed, t.tx.Gas())
			}
			receipts[i] = rc
		}
		if countNil(receipts) == 0 {
			return receipts, nil
		}
	}
}

// sealOneByOne sends the batch to a node that mines each transaction as it arrives (anvil), one
// transaction at a time, each after the last one's receipt: a transaction that reaches anvil while
// the one before it from the same sender is being mined can stay queued in its pool for good (seen
// in CI: the sender's next nonce and every later one queued, none ever mined).
func (bt *batch) sealOneByOne(ctx context.Context) ([]*types.Receipt, error) {
	client := bt.b.Client()
	receipts := make([]*types.Receipt, len(bt.txs))
	for i, t := range bt.txs {
		if err := client.SendTransaction(ctx, t.tx); err != nil {
			return nil, fmt.Errorf("%s: send from %s (nonce %d): %w", t.what, t.from, t.tx.Nonce(), err)
		}
		wait, cancel := context.WithTimeout(ctx, 30*time.Second)
		rc, err := receiptOf(wait, client, t.tx.Hash())
		cancel()
		switch {
		case err != nil:
			return nil, fmt.Errorf("%s: transaction %s from %s (nonce %d) not mined (%s): %w", t.what, t.tx.Hash(), t.from, t.tx.Nonce(),
				PoolReport(client, t.from), err)
		case rc.Status != types.ReceiptStatusSuccessful:
			return nil, fmt.Errorf("%s: transaction %s from %s reverted (gas used %d of %d)", t.what, t.tx.Hash(), t.from, rc.GasUsed, t.tx.Gas())
		}
		receipts[i] = rc
	}
	return receipts, nil
}

// receiptOf polls for a transaction's receipt until it is there or ctx ends.
func receiptOf(ctx context.Context, client simulated.Client, hash common.Hash) (*types.Receipt, error) {
	for {
		rc, err := client.TransactionReceipt(ctx, hash)
		if err == nil {
			return rc, nil
		}
		if !errors.Is(err, ethereum.NotFound) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}

func countNil[T any](s []*T) int {
	n := 0
	for _, p := range s {
		if p == nil {
			n++
		}
	}
	return n
}
