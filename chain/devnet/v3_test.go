package devnet

import (
	"bytes"
	"crypto/ecdsa"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/devnet/bindings"
	"github.com/partner-platform/partnerd/chain/devnet/bindings/v3pool"
)

// v3PoolAddress is the CREATE2 address of the V3 factory's pool of two tokens at a fee tier, computed
// here from first principles: salt keccak256(abi.encode(token0, token1, fee)) with the tokens sorted,
// init code hash the canonical one.
func v3PoolAddress(factory, tokenA, tokenB common.Address, fee int64) common.Address {
	if bytes.Compare(tokenB[:], tokenA[:]) < 0 {
		tokenA, tokenB = tokenB, tokenA
	}
	salt := crypto.Keccak256(common.LeftPadBytes(tokenA[:], 32), common.LeftPadBytes(tokenB[:], 32),
		common.LeftPadBytes(big.NewInt(fee).Bytes(), 32))
	return crypto.CreateAddress2(factory, [32]byte(salt), common.FromHex(chain.UniswapV3InitCodeHash))
}

// TestV3 deploys the official Uniswap V3 set on a fresh devnet beside the core contracts and runs it
// end to end: a 0.3 % USD/WETH pool created through the factory at its CREATE2 address, a ranged
// position minted through the position manager, an exact-input swap through SwapRouter02 equal to
// QuoterV2's quote, and TickLens reporting the position's two ticks.
func TestV3(t *testing.T) {
	ctx := t.Context()
	deployerKey, aliceKey := mustKey(t), mustKey(t)
	alloc := types.GenesisAlloc{}
	for _, k := range []*ecdsa.PrivateKey{deployerKey, aliceKey} {
		alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: units(10_000, 18)}
	}
	sim := NewBackend(alloc)
	t.Cleanup(func() { _ = sim.Close() })
	client := sim.Client()

	core, err := Deploy(ctx, sim, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	deployer, err := NewAccount(ctx, client, deployerKey)
	if err != nil {
		t.Fatal(err)
	}
	alice, err := NewAccount(ctx, client, aliceKey)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	v3, err := deployer.DeployV3(ctx, sim, core)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("DeployV3: 9 contracts in %v", time.Since(start).Round(time.Millisecond))
	h := &harness{t: t, ctx: ctx, sim: sim, client: client, addrs: core}

	var (
		factoryABI = bindings.NewUniswapV3Factory()
		poolABI    = v3pool.NewUniswapV3Pool()
		npmABI     = bindings.NewNonfungiblePositionManager()
		descABI    = bindings.NewNonfungibleTokenPositionDescriptor()
		routerABI  = bindings.NewSwapRouter02()
		quoterABI  = bindings.NewQuoterV2()
		lensABI    = bindings.NewTickLens()
		migABI     = bindings.NewV3Migrator()
		stakerABI  = bindings.NewUniswapV3Staker()
		wethABI    = bindings.NewWETH9()
	)

	// The pool's creation bytecode hashes to the canonical init code hash.
	if got := crypto.Keccak256Hash(common.FromHex(v3pool.UniswapV3PoolMetaData.Bin)); got != common.HexToHash(chain.UniswapV3InitCodeHash) {
		t.Fatalf("UniswapV3Pool init code hash = %s, want %s", got, chain.UniswapV3InitCodeHash)
	}
	// The library's placeholder is solc's for its fully qualified name, and the descriptor was linked
	// to the deployed library.
	if want := crypto.Keccak256Hash([]byte("contracts/libraries/NFTDescriptor.sol:NFTDescriptor")).Hex()[2:36]; bindings.NFTDescriptorMetaData.ID != want {
		t.Fatalf("NFTDescriptor placeholder = %s, want %s", bindings.NFTDescriptorMetaData.ID, want)
	}
	code, err := client.CodeAt(ctx, v3.PositionDescriptor, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(code, v3.NFTDescriptor[:]) {
		t.Fatal("the position descriptor's code does not hold the NFTDescriptor library's address")
	}

	// Every contract is wired to the others.
	for _, c := range []struct {
		what      string
		got, want common.Address
	}{
		{"position manager factory", call(h, v3.PositionManager, npmABI.PackFactory(), npmABI.UnpackFactory), v3.Factory},
		{"position manager WETH9", call(h, v3.PositionManager, npmABI.PackWETH9(), npmABI.UnpackWETH9), core.WrappedNative},
		{"descriptor WETH9", call(h, v3.PositionDescriptor, descABI.PackWETH9(), descABI.UnpackWETH9), core.WrappedNative},
		{"router V2 factory", call(h, v3.SwapRouter02, routerABI.PackFactoryV2(), routerABI.UnpackFactoryV2), core.Factory},
		{"router V3 factory", call(h, v3.SwapRouter02, routerABI.PackFactory(), routerABI.UnpackFactory), v3.Factory},
		{"router position manager", call(h, v3.SwapRouter02, routerABI.PackPositionManager(), routerABI.UnpackPositionManager), v3.PositionManager},
		{"router WETH9", call(h, v3.SwapRouter02, routerABI.PackWETH9(), routerABI.UnpackWETH9), core.WrappedNative},
		{"quoter factory", call(h, v3.QuoterV2, quoterABI.PackFactory(), quoterABI.UnpackFactory), v3.Factory},
		{"quoter WETH9", call(h, v3.QuoterV2, quoterABI.PackWETH9(), quoterABI.UnpackWETH9), core.WrappedNative},
		{"migrator factory", call(h, v3.V3Migrator, migABI.PackFactory(), migABI.UnpackFactory), v3.Factory},
		{"migrator WETH9", call(h, v3.V3Migrator, migABI.PackWETH9(), migABI.UnpackWETH9), core.WrappedNative},
		{"migrator position manager", call(h, v3.V3Migrator, migABI.PackNonfungiblePositionManager(), migABI.UnpackNonfungiblePositionManager), v3.PositionManager},
		{"staker factory", call(h, v3.Staker, stakerABI.PackFactory(), stakerABI.UnpackFactory), v3.Factory},
		{"staker position manager", call(h, v3.Staker, stakerABI.PackNonfungiblePositionManager(), stakerABI.UnpackNonfungiblePositionManager), v3.PositionManager},
		{"factory owner", call(h, v3.Factory, factoryABI.PackOwner(), factoryABI.UnpackOwner), deployer.Address},
	} {
		if c.got != c.want {
			t.Fatalf("%s = %s, want %s", c.what, c.got, c.want)
		}
	}
	if got := call(h, v3.PositionDescriptor, descABI.PackNativeCurrencyLabel(), descABI.UnpackNativeCurrencyLabel); got != V3NativeCurrencyLabel {
		t.Fatalf("native currency label = %q, want %q", got, V3NativeCurrencyLabel)
	}
	if got := call(h, v3.Staker, stakerABI.PackMaxIncentiveDuration(), stakerABI.UnpackMaxIncentiveDuration); got.Int64() != V3StakerMaxIncentiveDuration {
		t.Fatalf("staker max incentive duration = %s", got)
	}
	if got := call(h, v3.Staker, stakerABI.PackMaxIncentiveStartLeadTime(), stakerABI.UnpackMaxIncentiveStartLeadTime); got.Int64() != V3StakerMaxIncentiveStartLeadTime {
		t.Fatalf("staker max incentive start lead time = %s", got)
	}

	// The devnet's USD stablecoin (6 decimals) and WETH9: the deployer holds both, alice USD.
	usd, weth := core.USD, core.WrappedNative
	h.tx(deployer, usd, nil, tokenABI.PackMint(deployer.Address, units(1_000_000, 6)))
	h.tx(deployer, usd, nil, tokenABI.PackMint(alice.Address, units(10_000, 6)))
	h.tx(deployer, weth, units(1_000, 18), wethABI.PackDeposit())

	// The 0.3 % pool, created through the factory at its CREATE2 address, initialized at 3,000 USD per ETH.
	const fee = 3000
	rc := h.tx(deployer, v3.Factory, nil, factoryABI.PackCreatePool(usd, weth, big.NewInt(fee)))
	var created []*bindings.UniswapV3FactoryPoolCreated
	for _, l := range rc.Logs {
		if ev, err := factoryABI.UnpackPoolCreatedEvent(l); err == nil && l.Address == v3.Factory {
			created = append(created, ev)
		}
	}
	if len(created) != 1 {
		t.Fatalf("%d PoolCreated logs, want 1", len(created))
	}
	pool := created[0].Pool
	if want := v3PoolAddress(v3.Factory, weth, usd, fee); pool != want {
		t.Fatalf("pool %s is not at its CREATE2 address %s", pool, want)
	}
	if got, err := chain.UniswapV3PoolAddress(v3.Factory.Hex(), chain.UniswapV3InitCodeHash, weth.Hex(), usd.Hex(), fee); err != nil || got != strings.ToLower(pool.Hex()) {
		t.Fatalf("chain.UniswapV3PoolAddress = %s, %v; want %s", got, err, pool)
	}
	if got := call(h, v3.Factory, factoryABI.PackGetPool(weth, usd, big.NewInt(fee)), factoryABI.UnpackGetPool); got != pool {
		t.Fatalf("getPool = %s, want %s", got, pool)
	}
	token0, token1 := created[0].Token0, created[0].Token1
	if bytes.Compare(token0[:], token1[:]) >= 0 || created[0].Fee.Int64() != fee || created[0].TickSpacing.Int64() != 60 {
		t.Fatalf("PoolCreated = %+v", *created[0])
	}
	amount := map[common.Address]*big.Int{usd: units(3_000, 6), weth: units(1, 18)} // one ETH's worth of each
	ratio := new(big.Int).Lsh(amount[token1], 192)
	sqrtPrice := ratio.Div(ratio, amount[token0]).Sqrt(ratio)
	h.tx(deployer, pool, nil, poolABI.PackInitialize(sqrtPrice))
	slot0 := call(h, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0)
	if slot0.SqrtPriceX96.Cmp(sqrtPrice) != 0 {
		t.Fatalf("slot0 sqrtPriceX96 = %s, want %s", slot0.SqrtPriceX96, sqrtPrice)
	}

	// A ranged position around the price, minted through the position manager after approvals.
	tick := slot0.Tick.Int64()
	lower, upper := floorTo(tick-3000, 60), floorTo(tick+3000, 60)+60
	for _, tok := range []common.Address{usd, weth} {
		h.tx(deployer, tok, nil, tokenABI.PackApprove(v3.PositionManager, maxUint256))
	}
	desired := map[common.Address]*big.Int{usd: units(300_000, 6), weth: units(100, 18)}
	rc = h.tx(deployer, v3.PositionManager, nil, npmABI.PackMint(bindings.INonfungiblePositionManagerMintParams{
		Token0: token0, Token1: token1, Fee: big.NewInt(fee),
		TickLower: big.NewInt(lower), TickUpper: big.NewInt(upper),
		Amount0Desired: desired[token0], Amount1Desired: desired[token1],
		Amount0Min: new(big.Int), Amount1Min: new(big.Int),
		Recipient: deployer.Address, Deadline: farDeadline,
	}))
	var minted []*bindings.NonfungiblePositionManagerIncreaseLiquidity
	for _, l := range rc.Logs {
		if ev, err := npmABI.UnpackIncreaseLiquidityEvent(l); err == nil && l.Address == v3.PositionManager {
			minted = append(minted, ev)
		}
	}
	if len(minted) != 1 || minted[0].Liquidity.Sign() <= 0 {
		t.Fatalf("%d IncreaseLiquidity logs, want 1 with liquidity", len(minted))
	}
	id, liquidity := minted[0].TokenId, minted[0].Liquidity
	pos := call(h, v3.PositionManager, npmABI.PackPositions(id), npmABI.UnpackPositions)
	if pos.Token0 != token0 || pos.Token1 != token1 || pos.Fee.Int64() != fee || pos.TickLower.Int64() != lower ||
		pos.TickUpper.Int64() != upper || pos.Liquidity.Cmp(liquidity) != 0 || pos.TokensOwed0.Sign() != 0 || pos.TokensOwed1.Sign() != 0 {
		t.Fatalf("positions(%s) = %+v, want %s/%s %d [%d, %d] liquidity %s", id, pos, token0, token1, fee, lower, upper, liquidity)
	}
	if owner := call(h, v3.PositionManager, npmABI.PackOwnerOf(id), npmABI.UnpackOwnerOf); owner != deployer.Address {
		t.Fatalf("ownerOf(%s) = %s, want the deployer", id, owner)
	}
	if got := call(h, pool, poolABI.PackLiquidity(), poolABI.UnpackLiquidity); got.Cmp(liquidity) != 0 {
		t.Fatalf("pool liquidity = %s, want the position's %s", got, liquidity)
	}
	for _, tok := range []common.Address{token0, token1} {
		if got := h.balance(tok, pool); got.Sign() <= 0 || got.Cmp(desired[tok]) > 0 {
			t.Fatalf("pool holds %s of %s, want some, at most %s", got, tok, desired[tok])
		}
	}
	// tokenURI runs the descriptor and its linked NFTDescriptor library.
	if uri := call(h, v3.PositionManager, npmABI.PackTokenURI(id), npmABI.UnpackTokenURI); !strings.HasPrefix(uri, "data:application/json;base64,") {
		t.Fatalf("tokenURI(%s) = %.60q...", id, uri)
	}

	// Alice sells 1,000 USD for WETH through SwapRouter02 (exact input): she receives QuoterV2's quote
	// for the same amount at the same state, and the pool ends at the price the quoter said.
	h.tx(alice, usd, nil, tokenABI.PackApprove(v3.SwapRouter02, maxUint256))
	in := units(1_000, 6)
	quote := call(h, v3.QuoterV2, quoterABI.PackQuoteExactInputSingle(bindings.IQuoterV2QuoteExactInputSingleParams{
		TokenIn: usd, TokenOut: weth, AmountIn: in, Fee: big.NewInt(fee), SqrtPriceLimitX96: new(big.Int),
	}), quoterABI.UnpackQuoteExactInputSingle)
	if quote.AmountOut.Sign() <= 0 {
		t.Fatalf("quote = %+v", quote)
	}
	before := h.balance(weth, alice.Address)
	h.tx(alice, v3.SwapRouter02, nil, routerABI.PackExactInputSingle(bindings.IV3SwapRouterExactInputSingleParams{
		TokenIn: usd, TokenOut: weth, Fee: big.NewInt(fee), Recipient: alice.Address,
		AmountIn: in, AmountOutMinimum: quote.AmountOut, SqrtPriceLimitX96: new(big.Int),
	}))
	if got := new(big.Int).Sub(h.balance(weth, alice.Address), before); got.Cmp(quote.AmountOut) != 0 {
		t.Fatalf("alice received %s WETH, QuoterV2 said %s", got, quote.AmountOut)
	}
	if got := call(h, pool, poolABI.PackSlot0(), poolABI.UnpackSlot0); got.SqrtPriceX96.Cmp(quote.SqrtPriceX96After) != 0 {
		t.Fatalf("sqrtPriceX96 after the swap = %s, QuoterV2 said %s", got.SqrtPriceX96, quote.SqrtPriceX96After)
	}

	// TickLens: the position's two ticks are the pool's populated ticks, with its liquidity.
	ticks := map[int64]bindings.ITickLensPopulatedTick{}
	words := map[int16]bool{}
	for _, tk := range []int64{lower, upper} {
		words[int16((tk/60)>>8)] = true
	}
	for word := range words {
		for _, pt := range call(h, v3.TickLens, lensABI.PackGetPopulatedTicksInWord(pool, word), lensABI.UnpackGetPopulatedTicksInWord) {
			ticks[pt.Tick.Int64()] = pt
		}
	}
	if len(ticks) != 2 {
		t.Fatalf("TickLens reports %d ticks, want 2: %+v", len(ticks), ticks)
	}
	negL := new(big.Int).Neg(liquidity)
	for tk, net := range map[int64]*big.Int{lower: liquidity, upper: negL} {
		pt, ok := ticks[tk]
		if !ok || pt.LiquidityNet.Cmp(net) != 0 || pt.LiquidityGross.Cmp(liquidity) != 0 {
			t.Fatalf("TickLens tick %d = %+v (found %v), want net %s gross %s", tk, pt, ok, net, liquidity)
		}
	}
	t.Logf("pool %s (tick %d): position %s [%d, %d] liquidity %s; 1,000 USD in: %s WETH out, %d ticks crossed",
		pool, tick, id, lower, upper, liquidity, quote.AmountOut, quote.InitializedTicksCrossed)
}

// TestLocalV3: the local devnet seeds Uniswap V3 after the V2 market: pools at the three fee
// tiers, those on V2 pairs at the V2 pools' seeded prices and one pair on V3 only, each with
// positions of several widths (initialized ticks on both sides of the price) and one position out
// of range, as Market says (slot0, liquidity, fee, positions()); the staker's incentive holds its
// reward and one staked deposit; the chain entry names the V3 contracts. Then the background trader
// swaps on V3 pools through SwapRouter02, and prices move.
func TestLocalV3(t *testing.T) {
	ctx := t.Context()
	l := startLocal(t, ctx, LocalOptions{Addr: "127.0.0.1:0", TradeInterval: 50 * time.Millisecond, Logger: quietLogger})
	client, err := ethclient.DialContext(ctx, l.RPCURL())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	m, deployer := l.Market(), l.Accounts()[0].Address
	seeded := new(big.Int).SetUint64(l.seededBlock)
	v3 := m.V3
	at := func(to common.Address, data []byte) []byte {
		t.Helper()
		out, err := client.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, seeded)
		if err != nil {
			t.Fatalf("call %s: %v", to, err)
		}
		return out
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	// The V3 set was deployed after the V2 market: every V3 contract is the deployer's, created
	// after block v2SeedBlocks, and wired to the V2 market's factory and WETH9.
	for _, addr := range []common.Address{v3.Factory, v3.NFTDescriptor, v3.PositionDescriptor, v3.PositionManager, v3.SwapRouter02, v3.QuoterV2, v3.TickLens, v3.V3Migrator, v3.Staker} {
		if code, err := client.CodeAt(ctx, addr, big.NewInt(v2SeedBlocks)); err != nil || len(code) != 0 {
			t.Fatalf("%s has code at block %d (%v): V3 must come after the V2 market", addr, v2SeedBlocks, err)
		}
		if code, err := client.CodeAt(ctx, addr, seeded); err != nil || len(code) == 0 {
			t.Fatalf("no code at %s after seeding (%v)", addr, err)
		}
	}
	if got, err := bRouter02.UnpackFactoryV2(at(v3.SwapRouter02, bRouter02.PackFactoryV2())); err != nil || got != m.Core.Factory {
		t.Fatalf("SwapRouter02's V2 factory = %s, %v", got, err)
	}

	// Pools and positions, as seeded.
	v2Price := map[[2]common.Address]*big.Int{} // V2 pools' seeded prices as sqrtPriceX96
	for _, p := range m.Pools {
		r, err := bPair.UnpackGetReserves(at(p.Address, bPair.PackGetReserves()))
		must(err)
		v2Price[[2]common.Address{p.Token0, p.Token1}] = sqrtPriceX96(r.Reserve0, r.Reserve1)
	}
	if len(m.V3Pools) != len(seedV3Pools) {
		t.Fatalf("%d V3 pools, want %d", len(m.V3Pools), len(seedV3Pools))
	}
	fees := map[uint32]bool{}
	var onV2, v3Only, outOfRange int
	for _, p := range m.V3Pools {
		name := m.v3PoolName(p)
		fees[p.Fee] = true
		if bytes.Compare(p.Token0[:], p.Token1[:]) >= 0 {
			t.Fatalf("%s: token0 %s is not below token1 %s", name, p.Token0, p.Token1)
		}
		want, err := chain.UniswapV3PoolAddress(v3.Factory.Hex(), chain.UniswapV3InitCodeHash, p.Token1.Hex(), p.Token0.Hex(), int(p.Fee))
		must(err)
		if common.HexToAddress(want) != p.Address {
			t.Fatalf("%s at %s, CREATE2 gives %s", name, p.Address, want)
		}
		fee, err := bV3Pool.UnpackFee(at(p.Address, bV3Pool.PackFee()))
		must(err)
		spacing, err := bV3Pool.UnpackTickSpacing(at(p.Address, bV3Pool.PackTickSpacing()))
		must(err)
		slot0, err := bV3Pool.UnpackSlot0(at(p.Address, bV3Pool.PackSlot0()))
		must(err)
		liquidity, err := bV3Pool.UnpackLiquidity(at(p.Address, bV3Pool.PackLiquidity()))
		must(err)
		if fee.Int64() != int64(p.Fee) || spacing.Int64() != int64(p.TickSpacing) || slot0.SqrtPriceX96.Cmp(p.SqrtPriceX96) != 0 || slot0.Tick.Int64() != int64(p.Tick) {
			t.Fatalf("%s: fee %s, spacing %s, slot0 %+v; Market says %+v", name, fee, spacing, slot0, p)
		}
		if price, ok := v2Price[[2]common.Address{p.Token0, p.Token1}]; ok {
			onV2++
			if price.Cmp(p.SqrtPriceX96) != 0 {
				t.Fatalf("%s: sqrtPriceX96 %s, the V2 pool's seeded price is %s", name, p.SqrtPriceX96, price)
			}
		} else {
			v3Only++
		}

		inRange, below, above := new(big.Int), 0, 0
		full := false
		for _, pos := range p.Positions {
			got, err := bNPM.UnpackPositions(at(v3.PositionManager, bNPM.PackPositions(pos.TokenID)))
			must(err)
			if got.Token0 != p.Token0 || got.Token1 != p.Token1 || got.Fee.Int64() != int64(p.Fee) || got.TickLower.Int64() != int64(pos.TickLower) ||
				got.TickUpper.Int64() != int64(pos.TickUpper) || got.Liquidity.Cmp(pos.Liquidity) != 0 || pos.Liquidity.Sign() <= 0 {
				t.Fatalf("%s: positions(%s) = %+v, Market says %+v", name, pos.TokenID, got, pos)
			}
			owner, err := bNPM.UnpackOwnerOf(at(v3.PositionManager, bNPM.PackOwnerOf(pos.TokenID)))
			must(err)
			if owner != deployer && (owner != v3.Staker || pos.TokenID.Cmp(m.V3Incentive.StakedTokenID) != 0) {
				t.Fatalf("%s: position %s owned by %s", name, pos.TokenID, owner)
			}
			switch {
			case pos.InRange(p.Tick):
				inRange.Add(inRange, pos.Liquidity)
				below, above = below+1, above+1
				full = full || (pos.TickLower <= -v3MaxTick+p.TickSpacing && pos.TickUpper >= v3MaxTick-p.TickSpacing)
			default:
				outOfRange++
				if pos.Amount0.Sign() != 0 && pos.Amount1.Sign() != 0 {
					t.Fatalf("%s: position %s out of range holds both tokens", name, pos.TokenID)
				}
			}
		}
		if liquidity.Cmp(inRange) != 0 {
			t.Fatalf("%s: liquidity %s, the in-range positions' %s", name, liquidity, inRange)
		}
		if below < 3 || above < 3 || !full {
			t.Fatalf("%s: %d initialized ticks below the price and %d above (full range: %v), want 3 each", name, below, above, full)
		}
		t.Logf("%s %s: tick %d, %d positions, liquidity %s", name, p.Address, p.Tick, len(p.Positions), liquidity)
	}
	if len(fees) != 3 || onV2 < 2 || v3Only < 1 || outOfRange != 1 {
		t.Fatalf("fee tiers %v, %d pools on V2 pairs, %d on V3 only, %d positions out of range", fees, onV2, v3Only, outOfRange)
	}

	// The incentive: created before its start for the market's reward token, holding its reward,
	// with the deployer's position deposited and staked.
	inc := m.V3Incentive
	calldata := bStaker.PackCreateIncentive(inc.Key(), inc.Reward)
	if id := crypto.Keccak256Hash(calldata[4 : 4+5*32]); id != inc.ID { // abi.encode(key), as the staker's IncentiveId
		t.Fatalf("incentive id %s, keccak256(abi.encode(key)) = %s", inc.ID, id)
	}
	if inc.RewardToken != m.Tokens[len(m.Tokens)-1].Address || inc.Refundee != deployer || inc.Pool != m.V3Pools[v3IncentivePool].Address ||
		inc.EndTime <= inc.StartTime || inc.EndTime-inc.StartTime > V3StakerMaxIncentiveDuration {
		t.Fatalf("incentive = %+v", inc)
	}
	created, err := client.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(v2SeedBlocks + 1), ToBlock: seeded,
		Addresses: []common.Address{v3.Staker}, Topics: [][]common.Hash{{bStaker.GetABI().Events["IncentiveCreated"].ID}}})
	must(err)
	if len(created) != 1 {
		t.Fatalf("%d IncentiveCreated logs", len(created))
	}
	ev, err := bStaker.UnpackIncentiveCreatedEvent(&created[0])
	must(err)
	createdAt, err := client.HeaderByNumber(ctx, new(big.Int).SetUint64(created[0].BlockNumber))
	must(err)
	stakedAt, err := client.HeaderByNumber(ctx, seeded)
	must(err)
	if ev.RewardToken != inc.RewardToken || ev.Pool != inc.Pool || ev.StartTime.Uint64() != inc.StartTime || ev.EndTime.Uint64() != inc.EndTime ||
		ev.Refundee != inc.Refundee || ev.Reward.Cmp(inc.Reward) != 0 || createdAt.Time > inc.StartTime || stakedAt.Time < inc.StartTime ||
		inc.StartTime-createdAt.Time > V3StakerMaxIncentiveStartLeadTime {
		t.Fatalf("IncentiveCreated %+v in a block at %d, staked at %d; Market says %+v", *ev, createdAt.Time, stakedAt.Time, inc)
	}
	got, err := bStaker.UnpackIncentives(at(v3.Staker, bStaker.PackIncentives(inc.ID)))
	must(err)
	if got.TotalRewardUnclaimed.Cmp(inc.Reward) != 0 || got.NumberOfStakes.Int64() != 1 {
		t.Fatalf("incentives(%s) = %+v", inc.ID, got)
	}
	var staked SeededV3Position
	for _, pos := range m.V3Pools[v3IncentivePool].Positions {
		if pos.TokenID.Cmp(inc.StakedTokenID) == 0 {
			staked = pos
		}
	}
	dep, err := bStaker.UnpackDeposits(at(v3.Staker, bStaker.PackDeposits(inc.StakedTokenID)))
	must(err)
	stake, err := bStaker.UnpackStakes(at(v3.Staker, bStaker.PackStakes(inc.StakedTokenID, inc.ID)))
	must(err)
	if staked.Liquidity == nil || dep.Owner != deployer || dep.NumberOfStakes.Int64() != 1 || dep.TickLower.Int64() != int64(staked.TickLower) ||
		dep.TickUpper.Int64() != int64(staked.TickUpper) || stake.Liquidity.Cmp(staked.Liquidity) != 0 {
		t.Fatalf("deposit %+v, stake %+v of position %+v", dep, stake, staked)
	}

	// The chain entry names the V3 contracts.
	v := l.ChainConfig().Venues["uniswap-v3"]
	if v.Factory != v3.Factory.Hex() || v.Router != v3.SwapRouter02.Hex() || v.Quoter != v3.QuoterV2.Hex() || v.TickLens != v3.TickLens.Hex() ||
		v.InitCodeHash != chain.UniswapV3InitCodeHash || v.PositionManager != v3.PositionManager.Hex() || v.Staker != v3.Staker.Hex() ||
		v.Migrator != v3.V3Migrator.Hex() || v.FeeBps != 0 {
		t.Fatalf("uniswap-v3 venue = %+v", v)
	}

	// The trader swaps on V3 pools through SwapRouter02, for trader accounts, and prices move.
	pools := make([]common.Address, len(m.V3Pools))
	for i, p := range m.V3Pools {
		pools[i] = p.Address
	}
	var swaps []types.Log
	for began := time.Now(); len(swaps) < 4; time.Sleep(100 * time.Millisecond) {
		if time.Since(began) > 30*time.Second {
			t.Fatalf("%d V3 Swap logs after 30s", len(swaps))
		}
		if n, err := client.BlockNumber(ctx); err != nil || n <= l.seededBlock {
			continue
		}
		swaps, err = client.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: new(big.Int).Add(seeded, big.NewInt(1)), Addresses: pools,
			Topics: [][]common.Hash{{bV3Pool.GetABI().Events["Swap"].ID}}})
		must(err)
	}
	traders := map[common.Address]bool{}
	for _, a := range l.Accounts() {
		traders[a.Address] = a.Role == RoleTrader
	}
	for _, lg := range swaps {
		ev, err := bV3Pool.UnpackSwapEvent(&lg)
		must(err)
		if ev.Sender != v3.SwapRouter02 || !traders[ev.Recipient] {
			t.Fatalf("V3 Swap from %s to %s, want SwapRouter02 paying a trader", ev.Sender, ev.Recipient)
		}
	}
	moved := 0
	for _, p := range m.V3Pools {
		slot0 := callAt(t, client, p.Address, nil, bV3Pool.PackSlot0(), bV3Pool.UnpackSlot0)
		if slot0.SqrtPriceX96.Cmp(p.SqrtPriceX96) != 0 {
			moved++
		}
		t.Logf("%s: tick %d -> %d", m.v3PoolName(p), p.Tick, slot0.Tick)
	}
	if moved == 0 {
		t.Fatal("no V3 pool's price moved")
	}
	t.Logf("%d V3 Swap logs, %d of %d pools moved", len(swaps), moved, len(m.V3Pools))
}
