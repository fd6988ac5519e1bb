package devnet

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
)

// SeededV3Pool is one Uniswap V3 pool created, initialized and funded by the seeding; Token0 < Token1
// as the factory orders them.
type SeededV3Pool struct {
	Address, Token0, Token1 common.Address
	Fee                     uint32 // hundredths of a basis point: 500, 3000 or 10000
	TickSpacing             int32
	SqrtPriceX96            *big.Int // the price it was initialized at (token1 per token0, raw units)
	Tick                    int32    // the tick of SqrtPriceX96
	// Positions are the deployer's position NFTs minted at seeding, in token id order.
	Positions []SeededV3Position
}

// SeededV3Position is one NonfungiblePositionManager position minted by the seeding for the
// deployer (V3Incentive.StakedTokenID is deposited in the staker, which then owns the NFT).
type SeededV3Position struct {
	TokenID              *big.Int
	TickLower, TickUpper int32
	Liquidity            *big.Int
	Amount0, Amount1     *big.Int // what the mint took
}

// InRange reports whether the position's range holds the tick (tickLower <= tick < tickUpper).
func (p SeededV3Position) InRange(tick int32) bool { return p.TickLower <= tick && tick < p.TickUpper }

// V3Incentive is the UniswapV3Staker incentive the seeding created, with its key's fields, and the
// deployer position staked in it.
type V3Incentive struct {
	ID                 common.Hash // keccak256 of the abi-encoded key: the staker's incentives() key
	RewardToken, Pool  common.Address
	StartTime, EndTime uint64 // unix seconds
	Refundee           common.Address
	Reward             *big.Int // reward base units, paid over [StartTime, EndTime)
	StakedTokenID      *big.Int
}

// Key is the incentive's key as the staker's functions take it.
func (in V3Incentive) Key() bindings.IUniswapV3StakerIncentiveKey {
	return bindings.IUniswapV3StakerIncentiveKey{RewardToken: in.RewardToken, Pool: in.Pool,
		StartTime: new(big.Int).SetUint64(in.StartTime), EndTime: new(big.Int).SetUint64(in.EndTime), Refundee: in.Refundee}
}

// encodedKey is abi.encode(key): the staker's incentive id preimage, and the data of a position
// transfer to the staker that deposits and stakes it in this incentive.
func (in V3Incentive) encodedKey() []byte {
	word := func(b []byte) []byte { return common.LeftPadBytes(b, 32) }
	return bytes.Join([][]byte{word(in.RewardToken[:]), word(in.Pool[:]), word(new(big.Int).SetUint64(in.StartTime).Bytes()),
		word(new(big.Int).SetUint64(in.EndTime).Bytes()), word(in.Refundee[:])}, nil)
}

// v3Range is a position's range as tick offsets from the pool's tick at seeding, rounded outwards
// to the tier's spacing (full: the widest range the spacing allows), and its share of the pool's
// amounts, in percent.
type v3Range struct {
	lo, hi int64
	full   bool
	share  int64
}

// The positions' ranges: narrow (about ±1 %, the one the trader's moves cross most), medium
// (about ±20 %), full, and one wholly above the price (it holds token0 only).
var (
	v3Narrow = v3Range{lo: -100, hi: 100, share: 30}
	v3Medium = v3Range{lo: -2000, hi: 2000, share: 30}
	v3Full   = v3Range{full: true, share: 40}
	v3Above  = v3Range{lo: 1500, hi: 3000, share: 20}
)

// v3PoolSpec is one seeded V3 pool: whole units of each side, by symbol, whose ratio is the
// initial price (for a pair that also has a V2 pool, the V2 pool's seeded price) and of which each
// position takes its share.
type v3PoolSpec struct {
	a, b           string
	fee            uint32
	wholeA, wholeB int64
	ranges         []v3Range
}

// v3TickSpacing is the V3 factory's tick spacing of each fee tier.
var v3TickSpacing = map[uint32]int64{500: 10, 3000: 60, 10000: 200}

// seedV3Pools: WETH/USD at 0.05 % and 0.3 % and EMB/USD at 1 % also have V2 pools at the same
// price, so routes choose; NIM/WETH is on V3 only. The 0.3 % WETH/USD pool carries the out-of-range
// position and the incentive.
var seedV3Pools = []v3PoolSpec{
	{wethSymbol, usdSymbol, 500, 20, 60_000, []v3Range{v3Narrow, v3Medium, v3Full}},
	{wethSymbol, usdSymbol, 3000, 30, 90_000, []v3Range{v3Narrow, v3Medium, v3Full, v3Above}},
	{"EMB", usdSymbol, 10000, 200, 8_400, []v3Range{v3Narrow, v3Medium, v3Full}},
	{"NIM", wethSymbol, 3000, 120_000, 10, []v3Range{v3Narrow, v3Medium, v3Full}},
}

// The incentive: v3IncentiveWholeReward HRV for the pool seedV3Pools[v3IncentivePool] over
// v3IncentiveDuration seconds from v3IncentiveLead seconds after the chain's clock when it is
// created (the staker wants a start no earlier than its block); the position staked in it is the
// pool's medium one, Positions[v3StakedPosition].
const (
	v3IncentivePool        = 1
	v3StakedPosition       = 1
	v3IncentiveWholeReward = 50_000
	v3IncentiveDuration    = 365 * 24 * 60 * 60
	v3IncentiveLead        = 3
)

// v3StartWait bounds how long Seed waits for the chain's clock to reach the incentive's start.
const v3StartWait = 15 * time.Second

// Uniswap V3's tick bounds (TickMath.MIN_TICK and MAX_TICK).
const v3MaxTick = 887272

var (
	bWETH      = bindings.NewWETH9()
	bV3Factory = bindings.NewUniswapV3Factory()
	bV3Pool    = v3pool.NewUniswapV3Pool()
	bNPM       = bindings.NewNonfungiblePositionManager()
	bRouter02  = bindings.NewSwapRouter02()
	bQuoter    = bindings.NewQuoterV2()
	bStaker    = bindings.NewUniswapV3Staker()
	q96        = new(big.Int).Lsh(big.NewInt(1), 96)
)

// seedV3 deploys the official Uniswap V3 set beside the seeded V2 market and seeds it, in three
// rounds after Seed's five: the V3 contracts (created at the addresses the deployer's nonces give)
// with the deployer's wrapped ETH and approvals and the traders' approvals of SwapRouter02; every
// pool, created, initialized and given its positions by one position manager multicall each, and
// the incentive; the stake of one position, once the chain's clock has reached the incentive's
// start. symbols lists tokens' keys in a fixed order.
func seedV3(ctx context.Context, b Backend, accounts []*Account, m *Market, tokens map[string]seedToken, symbols []string) error {
	wrap := func(step string, err error) error { return fmt.Errorf("devnet: seed: V3 %s: %w", step, err) }
	deployer, traders := accounts[0], accounts[firstTrader:firstUser]
	reward := m.Tokens[len(m.Tokens)-1].Address // HRV

	// Round 1: the contracts, wrapped ETH and approvals.
	plan, v3, err := planV3(deployer.Address, deployer.nonce, m.Core)
	if err != nil {
		return wrap("deploy", err)
	}
	m.V3 = v3
	bt, err := newBatch(ctx, b)
	if err != nil {
		return wrap("deploy", err)
	}
	for _, d := range plan {
		if err == nil {
			err = bt.add(ctx, deployer, nil, nil, append(common.FromHex(d.meta.Bin), d.input...), "deploy "+d.name)
		}
	}
	need := v3Needs(tokens)
	weth := m.Core.WrappedNative
	if err == nil {
		err = bt.add(ctx, deployer, &weth, need[wethSymbol], bWETH.PackDeposit(), "wrap ETH for the V3 positions")
	}
	incentiveReward := wholeUnits(v3IncentiveWholeReward, 18)
	if err == nil {
		err = bt.add(ctx, deployer, &reward, nil, bToken.PackApprove(v3.Staker, incentiveReward), "approve the staker")
	}
	for _, sym := range symbols {
		t := tokens[sym]
		if err == nil && need[sym] != nil {
			err = bt.add(ctx, deployer, &t.addr, nil, bToken.PackApprove(v3.PositionManager, maxUint256), "approve the position manager")
		}
		for _, a := range traders {
			if err == nil {
				err = bt.add(ctx, a, &t.addr, nil, bToken.PackApprove(v3.SwapRouter02, maxUint256), "approve SwapRouter02")
			}
		}
	}
	if err != nil {
		return wrap("deploy", err)
	}
	receipts, err := bt.seal(ctx)
	if err != nil {
		return wrap("deploy", err)
	}
	for i, d := range plan {
		if receipts[i].ContractAddress != d.at {
			return wrap("deploy", fmt.Errorf("%s at %s, planned at %s", d.name, receipts[i].ContractAddress, d.at))
		}
	}

	// Round 2: the incentive first (its start is a little ahead of the chain's clock), then the pools.
	head, err := b.Client().HeaderByNumber(ctx, nil)
	if err != nil {
		return wrap("pools", err)
	}
	start := max(head.Time, uint64(time.Now().Unix())) + v3IncentiveLead
	m.V3Pools = make([]SeededV3Pool, len(seedV3Pools))
	calls := make([][][]byte, len(seedV3Pools))
	for i, ps := range seedV3Pools {
		if m.V3Pools[i], calls[i], err = planV3Pool(ps, tokens, v3.Factory, deployer.Address); err != nil {
			return wrap("pools", err)
		}
	}
	inc := V3Incentive{RewardToken: reward, Pool: m.V3Pools[v3IncentivePool].Address, StartTime: start,
		EndTime: start + v3IncentiveDuration, Refundee: deployer.Address, Reward: incentiveReward}
	inc.ID = crypto.Keccak256Hash(inc.encodedKey())
	if bt, err = newBatch(ctx, b); err != nil {
		return wrap("pools", err)
	}
	err = bt.add(ctx, deployer, &v3.Staker, nil, bStaker.PackCreateIncentive(inc.Key(), inc.Reward), "create the incentive")
	for i, c := range calls {
		if err == nil {
			err = bt.add(ctx, deployer, &v3.PositionManager, nil, bNPM.PackMulticall(c), "pool "+m.v3PoolName(m.V3Pools[i]))
		}
	}
	if err != nil {
		return wrap("pools", err)
	}
	if receipts, err = bt.seal(ctx); err != nil {
		return wrap("pools", err)
	}
	for i := range m.V3Pools {
		if err := m.V3Pools[i].record(ctx, b.Client(), v3, receipts[1+i]); err != nil {
			return wrap("pools", err)
		}
	}

	// Round 3: the deployer sends its position to the staker with the key as data: a deposit and
	// a stake, which the staker takes from the incentive's start on.
	inc.StakedTokenID = m.V3Pools[v3IncentivePool].Positions[v3StakedPosition].TokenID
	stake := bNPM.PackSafeTransferFrom0(deployer.Address, v3.Staker, inc.StakedTokenID, inc.encodedKey())
	if err := waitCallable(ctx, b, ethereum.CallMsg{From: deployer.Address, To: &v3.PositionManager, Data: stake}, v3StartWait, v3IncentiveLead+1); err != nil {
		return wrap("stake", fmt.Errorf("the incentive's start %d: %w", start, err))
	}
	if bt, err = newBatch(ctx, b); err != nil {
		return wrap("stake", err)
	}
	if err := bt.add(ctx, deployer, &v3.PositionManager, nil, stake, "stake a position"); err != nil {
		return wrap("stake", err)
	}
	if _, err := bt.seal(ctx); err != nil {
		return wrap("stake", err)
	}
	m.V3Incentive = inc
	got, err := callContract(ctx, b.Client(), v3.Staker, bStaker.PackIncentives(inc.ID), bStaker.UnpackIncentives)
	if err != nil {
		return wrap("stake", err)
	}
	if got.TotalRewardUnclaimed.Cmp(inc.Reward) != 0 || got.NumberOfStakes.Cmp(big.NewInt(1)) != 0 {
		return wrap("stake", fmt.Errorf("incentive %s: %s unclaimed, %s stakes; want %s and 1", inc.ID, got.TotalRewardUnclaimed, got.NumberOfStakes, inc.Reward))
	}
	return nil
}

// v3Needs is what the deployer's V3 positions may take of each token (by symbol): at most the
// pools' amounts times their ranges' shares.
func v3Needs(tokens map[string]seedToken) map[string]*big.Int {
	need := map[string]*big.Int{}
	add := func(sym string, whole, share int64) {
		if need[sym] == nil {
			need[sym] = new(big.Int)
		}
		need[sym].Add(need[sym], v3Share(whole, share, tokens[sym].decimals))
	}
	for _, ps := range seedV3Pools {
		for _, r := range ps.ranges {
			add(ps.a, ps.wholeA, r.share)
			add(ps.b, ps.wholeB, r.share)
		}
	}
	return need
}

// v3Share is share percent of whole tokens, in base units.
func v3Share(whole, share int64, decimals uint8) *big.Int {
	v := wholeUnits(whole*share, decimals)
	return v.Quo(v, big.NewInt(100))
}

// planV3Pool is the pool ps at its CREATE2 address with its initial price, and the position
// manager calls that create and initialize it and mint its positions for owner.
func planV3Pool(ps v3PoolSpec, tokens map[string]seedToken, factory, owner common.Address) (SeededV3Pool, [][]byte, error) {
	a, b := tokens[ps.a], tokens[ps.b]
	amtA, amtB := wholeUnits(ps.wholeA, a.decimals), wholeUnits(ps.wholeB, b.decimals)
	wholeA, wholeB := ps.wholeA, ps.wholeB
	if bytes.Compare(a.addr[:], b.addr[:]) > 0 {
		a, b, amtA, amtB, wholeA, wholeB = b, a, amtB, amtA, wholeB, wholeA
	}
	at, err := chain.UniswapV3PoolAddress(factory.Hex(), chain.UniswapV3InitCodeHash, a.addr.Hex(), b.addr.Hex(), int(ps.fee))
	if err != nil {
		return SeededV3Pool{}, nil, err
	}
	spacing := v3TickSpacing[ps.fee]
	p := SeededV3Pool{Address: common.HexToAddress(at), Token0: a.addr, Token1: b.addr, Fee: ps.fee, TickSpacing: int32(spacing),
		SqrtPriceX96: sqrtPriceX96(amtA, amtB)}
	fee := big.NewInt(int64(ps.fee))
	calls := [][]byte{bNPM.PackCreateAndInitializePoolIfNecessary(p.Token0, p.Token1, fee, p.SqrtPriceX96)}
	tick := approxTick(amtA, amtB)
	for _, r := range ps.ranges {
		lower, upper := -(v3MaxTick/spacing)*spacing, (v3MaxTick/spacing)*spacing
		if !r.full {
			lower, upper = floorTo(tick+r.lo, spacing), -floorTo(-(tick+r.hi), spacing)
		}
		calls = append(calls, bNPM.PackMint(bindings.INonfungiblePositionManagerMintParams{
			Token0: p.Token0, Token1: p.Token1, Fee: fee, TickLower: big.NewInt(lower), TickUpper: big.NewInt(upper),
			Amount0Desired: v3Share(wholeA, r.share, a.decimals), Amount1Desired: v3Share(wholeB, r.share, b.decimals),
			Amount0Min: new(big.Int), Amount1Min: new(big.Int), Recipient: owner, Deadline: farDeadline,
		}))
	}
	return p, calls, nil
}

// sqrtPriceX96 is the Q64.96 square root of amount1 / amount0 (raw units), rounded down.
func sqrtPriceX96(amount0, amount1 *big.Int) *big.Int {
	r := new(big.Int).Lsh(amount1, 192)
	return r.Quo(r, amount0).Sqrt(r)
}

// approxTick is about the tick of the price amount1 / amount0 (a float's precision: ranges around
// it are hundreds of ticks wide).
func approxTick(amount0, amount1 *big.Int) int64 {
	return int64(math.Floor(math.Log(ratio(amount1, amount0)) / math.Log(1.0001)))
}

// floorTo is the largest multiple of spacing not above tick.
func floorTo(tick, spacing int64) int64 {
	q := tick / spacing
	if tick%spacing != 0 && tick < 0 {
		q--
	}
	return q * spacing
}

// record checks the pool against the factory and its slot0, and reads its positions from the
// position manager's IncreaseLiquidity logs in rc, the receipt of its multicall.
func (p *SeededV3Pool) record(ctx context.Context, client ethereum.ContractCaller, v3 V3Addresses, rc *types.Receipt) error {
	got, err := callContract(ctx, client, v3.Factory, bV3Factory.PackGetPool(p.Token0, p.Token1, big.NewInt(int64(p.Fee))), bV3Factory.UnpackGetPool)
	if err != nil {
		return err
	}
	if got != p.Address {
		return fmt.Errorf("getPool = %s, CREATE2 gives %s", got, p.Address)
	}
	slot0, err := callContract(ctx, client, p.Address, bV3Pool.PackSlot0(), bV3Pool.UnpackSlot0)
	if err != nil {
		return err
	}
	if slot0.SqrtPriceX96.Cmp(p.SqrtPriceX96) != 0 {
		return fmt.Errorf("pool %s: sqrtPriceX96 %s, initialized at %s", p.Address, slot0.SqrtPriceX96, p.SqrtPriceX96)
	}
	p.Tick = int32(slot0.Tick.Int64())
	for _, l := range rc.Logs {
		ev, err := bNPM.UnpackIncreaseLiquidityEvent(l)
		if err != nil || l.Address != v3.PositionManager {
			continue
		}
		pos, err := callContract(ctx, client, v3.PositionManager, bNPM.PackPositions(ev.TokenId), bNPM.UnpackPositions)
		if err != nil {
			return err
		}
		p.Positions = append(p.Positions, SeededV3Position{TokenID: ev.TokenId, TickLower: int32(pos.TickLower.Int64()),
			TickUpper: int32(pos.TickUpper.Int64()), Liquidity: ev.Liquidity, Amount0: ev.Amount0, Amount1: ev.Amount1})
	}
	if len(p.Positions) == 0 {
		return fmt.Errorf("pool %s: no position minted", p.Address)
	}
	return nil
}

// waitCallable waits until msg would succeed (its gas estimate does), for a transaction that
// depends on the chain's clock: on a chain that seals blocks on Commit (the simulated one, whose
// clock advances at least a second a block) it seals up to maxBlocks empty blocks meanwhile; on
// one that mines by itself (anvil, whose blocks and estimates carry the wall clock) it waits up
// to wait.
func waitCallable(ctx context.Context, b Backend, msg ethereum.CallMsg, wait time.Duration, maxBlocks int) error {
	deadline := time.Now().Add(wait)
	automines := false
	if a, ok := b.(interface{ Automines() bool }); ok {
		automines = a.Automines()
	}
	for blocks := 0; ; {
		_, err := b.Client().EstimateGas(ctx, msg)
		switch {
		case err == nil:
			return nil
		case time.Now().After(deadline) || blocks == maxBlocks:
			return fmt.Errorf("still failing after %s and %d empty blocks: %w", wait, blocks, err)
		case !automines:
			b.Commit()
			blocks++
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// v3PoolName is the pool's pair and fee tier, as "WETH/USDD 0.3%".
func (m Market) v3PoolName(p SeededV3Pool) string {
	return fmt.Sprintf("%s/%s %s%%", m.symbol(p.Token0), m.symbol(p.Token1), new(big.Rat).SetFrac64(int64(p.Fee), 10_000).FloatString(2))
}
