package raydium

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/partner-platform/partnerd/chain"
)

// VenueName is the venue's name, its `amm` value in chain.VenueSpecs.
const VenueName = "raydium"

// Anchor event discriminators: sha256("event:<Name>")[..8] leads each event the program logs with
// sol_log_data ("Program data:").
var (
	swapEventDiscriminator     = discriminator("event:SwapEvent")
	lpChangeEventDiscriminator = discriminator("event:LpChangeEvent")
)

// Sizes of the events: SwapEvent before CPMM's creator fee (up to base_input) and with it (then
// input_mint, output_mint, trade_fee, creator_fee, creator_fee_on_input); LpChangeEvent.
const (
	swapEventMinSize  = 8 + 32 + 6*8 + 1
	swapEventFullSize = swapEventMinSize + 2*32 + 2*8 + 1
	lpChangeEventSize = 8 + 32 + 7*8 + 1
)

// Indexer reads CPMM pools and pool events from the program's transactions: it is the venue's
// chain.SVMIndexer. It is stateless and safe for concurrent use.
//
// Pools: initialize creates one (IndexedPool: the pool state address; Token0 and Token1 are the
// mints in CPMM's order, token 0's the lower key; FeeBps is the AmmConfig's trade fee rate in
// basis points, rounded to the nearest, read from the config account the follower reads for it,
// since the transaction names the config but does not carry it: 0 when that account could not be
// read; SVMPool.LPMint is the pool's LP mint). Initialize also yields a Mint of the initial
// liquidity, as a Uniswap V2 pair's first Mint.
//
// Events: swap_base_input and swap_base_output are Swaps (the amounts the vaults took in and paid
// out, Token-2022 transfer fees excluded: what the pool itself traded), deposit a Mint and
// withdraw a Burn of the amounts the vaults took or paid; Trader is the instruction's payer (the
// swap's payer, the deposit's or withdraw's owner, the pool's creator). When the pool has one CPMM
// instruction in the transaction, as nearly always, the amounts are its vaults' token balance
// changes over the transaction; when it has several (a route through the same pool twice), each
// instruction's share comes from the event the program logged for it (SwapEvent, LpChangeEvent),
// whose amounts are the same quantities per instruction. Instructions that are swapped through by
// another program (an aggregator's route) are read alike, being in the transaction's inner
// instructions.
//
// Reserves: each Swap, Mint and Burn is preceded by a Sync with the pool's reserves after it as
// the program prices the pool: the vault balances less the fees owed from them (protocol, fund and
// creator fees, which the vaults hold but the curve leaves out: CPMM's vault_amount_without_fee).
// Those fees live in the pool's state, which no transaction carries, so the reserves are the
// program's own figures: each CPMM event states the reserves before its instruction, exactly; the
// reserves after an instruction are the next instruction's "before" where the same transaction
// has one, else the "before" advanced by the instruction (a deposit or withdraw moves the reserves
// by its amounts; a swap adds its input less the protocol and fund shares of its trade fee and
// the creator fee on the input, and pays out its output and the creator fee on the output). The
// protocol and fund shares are the trade fee times the AmmConfig's rates, rounded down, as the
// program computes them: exact when the config account was read (the follower reads it at its
// commitment; a rate changed between the swap and the read would be misapplied to that swap),
// left at 0 otherwise (an error of at most that one swap's protocol and fund fees, which the
// pool's next event corrects, its "before" being exact). After initialize the reserves are the
// vault balances (nothing is owed yet). Without the event (a node that truncated the logs) the
// reserves after the pool's last instruction fall back to its vaults' balances, owed fees
// included; a pool with several CPMM instructions in such a transaction cannot be split and the
// transaction is refused (an error).
type Indexer struct{}

var _ chain.SVMIndexer = Indexer{}

// Program implements chain.SVMIndexer: CPMM's program id.
func (Indexer) Program() string { return programID }

var programID = ProgramID.String()

// Accounts implements chain.SVMIndexer: the AmmConfigs of the transaction's initialize and swap
// instructions (their trade fee rate is the pool's fee tier; their protocol and fund rates price a
// swap's owed fees).
func (Indexer) Accounts(tx *chain.SVMTx) []string {
	var out []string
	seen := map[string]bool{}
	for _, in := range tx.Instructions {
		op, ok := cpmmOp(&in)
		if !ok {
			continue
		}
		var cfg string
		switch op {
		case opInitialize:
			cfg = in.Accounts[1]
		case opSwapBaseInput, opSwapBaseOutput:
			cfg = in.Accounts[2]
		default:
			continue
		}
		if !seen[cfg] {
			seen[cfg] = true
			out = append(out, cfg)
		}
	}
	return out
}

// ixKind is a CPMM instruction the indexer reads.
type ixKind int

const (
	opInitialize ixKind = iota + 1
	opDeposit
	opWithdraw
	opSwapBaseInput
	opSwapBaseOutput
)

// accountsOf is how many accounts each instruction has at least (CPMM's order, see the encoders).
var accountsOf = map[ixKind]int{opInitialize: 20, opDeposit: 13, opWithdraw: 14, opSwapBaseInput: 13, opSwapBaseOutput: 13}

// cpmmOp classifies an instruction of the CPMM program; false for any other program's and for
// the program's instructions the indexer does not read (admin, fee collection).
func cpmmOp(in *chain.SVMInstruction) (ixKind, bool) {
	if in.Program != programID || len(in.Data) < 8 {
		return 0, false
	}
	var o ixKind
	switch [8]byte(in.Data[:8]) {
	case ixInitialize:
		o = opInitialize
	case ixDeposit:
		o = opDeposit
	case ixWithdraw:
		o = opWithdraw
	case ixSwapBaseInput:
		o = opSwapBaseInput
	case ixSwapBaseOutput:
		o = opSwapBaseOutput
	default:
		return 0, false
	}
	return o, len(in.Accounts) >= accountsOf[o]
}

// poolStep is one CPMM instruction on a pool, as read from the transaction.
type poolStep struct {
	ix     int // position in tx.Instructions
	op     ixKind
	trader string
	// zeroForOne: a swap's direction (token 0 in). vault0 and vault1 are the pool's vaults.
	zeroForOne     bool
	vault0, vault1 string
	config         string // initialize and swaps

	// From the instruction's event, when known (hasEvent): the reserves before it (token 0,
	// token 1), the token amounts into (+) or out of (-) the reserves' vaults, and a swap's fees.
	hasEvent                       bool
	before0, before1               uint64
	in0, in1, out0, out1           uint64 // what the vaults took in and paid out
	tradeFee, creatorFee           uint64
	creatorOnInput, hasTradeFields bool
}

// Decode implements chain.SVMIndexer.
func (ix Indexer) Decode(tx *chain.SVMTx, accounts map[string][]byte) ([]chain.SVMPool, []chain.PoolEvent, error) {
	var pools []chain.SVMPool
	steps := map[string][]*poolStep{} // pool -> its instructions in order
	var order []string                // pools in order of first appearance
	for i := range tx.Instructions {
		in := &tx.Instructions[i]
		o, ok := cpmmOp(in)
		if !ok {
			if in.Program == programID && len(in.Data) >= 8 && opKnown(in.Data) {
				return nil, nil, fmt.Errorf("raydium: instruction %d of %s has %d accounts, fewer than CPMM's", i, tx.Signature, len(in.Accounts))
			}
			continue
		}
		s, pool, err := readStep(tx, i, o)
		if err != nil {
			return nil, nil, err
		}
		if o == opInitialize {
			p := chain.SVMPool{IndexedPool: chain.IndexedPool{Address: pool, Venue: VenueName, Token0: in.Accounts[4], Token1: in.Accounts[5],
				FeeBps: feeBps(accounts[s.config]), Block: tx.Slot, Time: tx.Time}, LPMint: in.Accounts[6]}
			pools = append(pools, p)
		}
		if steps[pool] == nil {
			order = append(order, pool)
		}
		steps[pool] = append(steps[pool], s)
	}
	var events []chain.PoolEvent
	for _, pool := range order {
		evs, err := poolEvents(tx, pool, steps[pool], accounts)
		if err != nil {
			return nil, nil, err
		}
		events = append(events, evs...)
	}
	slices.SortFunc(events, func(a, b chain.PoolEvent) int { return cmp.Compare(a.LogIndex, b.LogIndex) })
	return pools, events, nil
}

func opKnown(data []byte) bool {
	switch [8]byte(data[:8]) {
	case ixInitialize, ixDeposit, ixWithdraw, ixSwapBaseInput, ixSwapBaseOutput:
		return true
	}
	return false
}

// readStep reads instruction i (of kind o): its pool, vaults, direction and event.
func readStep(tx *chain.SVMTx, i int, o ixKind) (*poolStep, string, error) {
	in := &tx.Instructions[i]
	a := in.Accounts
	s := &poolStep{ix: i, op: o, trader: a[0]}
	var pool string
	switch o {
	case opInitialize:
		pool, s.config, s.vault0, s.vault1 = a[3], a[1], a[10], a[11]
	case opDeposit, opWithdraw:
		pool, s.vault0, s.vault1 = a[2], a[6], a[7]
	case opSwapBaseInput, opSwapBaseOutput:
		pool, s.config = a[3], a[2]
		inMint, err := ParsePubkey(a[10])
		if err != nil {
			return nil, "", fmt.Errorf("raydium: swap in %s: input mint: %w", tx.Signature, err)
		}
		outMint, err := ParsePubkey(a[11])
		if err != nil {
			return nil, "", fmt.Errorf("raydium: swap in %s: output mint: %w", tx.Signature, err)
		}
		// CPMM's initialize requires token 0's mint below token 1's: the lower mint is token 0.
		s.zeroForOne = inMint.Less(outMint)
		s.vault0, s.vault1 = a[6], a[7]
		if !s.zeroForOne {
			s.vault0, s.vault1 = a[7], a[6]
		}
	}
	if tx.LogsComplete && o != opInitialize {
		if err := s.readEvent(in.LogData, pool); err != nil {
			return nil, "", fmt.Errorf("raydium: instruction %d of %s: %w", i, tx.Signature, err)
		}
	}
	return s, pool, nil
}

// readEvent finds the instruction's SwapEvent or LpChangeEvent among what it logged. An
// instruction without one is left without (hasEvent false).
func (s *poolStep) readEvent(logged [][]byte, pool string) error {
	for _, d := range logged {
		if len(d) < 8 {
			continue
		}
		disc := [8]byte(d[:8])
		switch {
		case disc == swapEventDiscriminator && (s.op == opSwapBaseInput || s.op == opSwapBaseOutput):
			if len(d) < swapEventMinSize {
				return fmt.Errorf("SwapEvent of %d bytes", len(d))
			}
			r := &reader{b: d, off: 8}
			if id := r.key(); id.String() != pool {
				return fmt.Errorf("SwapEvent of pool %s in a swap of %s", id, pool)
			}
			beforeIn, beforeOut, amountIn, amountOut := r.u64(), r.u64(), r.u64(), r.u64()
			r.skip(8 + 8 + 1) // the transfer fees, base_input
			if len(d) >= swapEventFullSize {
				r.skip(64) // the mints
				s.tradeFee, s.creatorFee, s.creatorOnInput, s.hasTradeFields = r.u64(), r.u64(), r.u8() != 0, true
			}
			s.hasEvent = true
			if s.zeroForOne {
				s.before0, s.before1, s.in0, s.out1 = beforeIn, beforeOut, amountIn, amountOut
			} else {
				s.before0, s.before1, s.in1, s.out0 = beforeOut, beforeIn, amountIn, amountOut
			}
			return nil
		case disc == lpChangeEventDiscriminator && (s.op == opDeposit || s.op == opWithdraw):
			if len(d) < lpChangeEventSize {
				return fmt.Errorf("LpChangeEvent of %d bytes", len(d))
			}
			r := &reader{b: d, off: 8}
			if id := r.key(); id.String() != pool {
				return fmt.Errorf("LpChangeEvent of pool %s in a deposit or withdraw of %s", id, pool)
			}
			r.skip(8) // lp_amount_before
			s.before0, s.before1 = r.u64(), r.u64()
			a0, a1, fee0, fee1 := r.u64(), r.u64(), r.u64(), r.u64()
			s.hasEvent = true
			if s.op == opDeposit { // the vaults take the amounts (the owner sends them and their transfer fees)
				s.in0, s.in1 = a0, a1
				return nil
			}
			// withdraw: the owner receives the amounts, Token-2022 withholds the fees, and the
			// vaults pay both
			o0, ok0 := addRates(a0, fee0)
			o1, ok1 := addRates(a1, fee1)
			if !ok0 || !ok1 {
				return fmt.Errorf("LpChangeEvent amounts pass u64")
			}
			s.out0, s.out1 = o0, o1
			return nil
		}
	}
	return nil
}

// poolEvents turns a pool's instructions in tx into events: for each, a Sync with the reserves
// after it and the Swap, Mint or Burn itself.
func poolEvents(tx *chain.SVMTx, pool string, steps []*poolStep, accounts map[string][]byte) ([]chain.PoolEvent, error) {
	last := steps[len(steps)-1]
	b0, ok0 := tx.TokenBalance(last.vault0)
	b1, ok1 := tx.TokenBalance(last.vault1)
	haveVaults := ok0 && ok1
	var out []chain.PoolEvent
	for k, s := range steps {
		var next *poolStep
		if k+1 < len(steps) {
			next = steps[k+1]
		}
		// The amounts. Several instructions on the pool: each one's event (initialize has none,
		// but the next one's "before" is what it put in).
		in0, in1, out0, out1 := s.in0, s.in1, s.out0, s.out1
		switch {
		case len(steps) == 1 && haveVaults:
			in0, out0 = vaultDelta(b0)
			in1, out1 = vaultDelta(b1)
		case len(steps) == 1:
			return nil, fmt.Errorf("raydium: %s: no token balances of pool %s's vaults", tx.Signature, pool)
		case s.op == opInitialize && next != nil && next.hasEvent:
			in0, in1 = next.before0, next.before1
		case s.op == opInitialize || !s.hasEvent:
			return nil, fmt.Errorf("raydium: %s has %d CPMM instructions on pool %s and not each one's event: their amounts cannot be told apart",
				tx.Signature, len(steps), pool)
		}
		// The reserves after it: the next instruction's "before", else the vaults after
		// initialize or where the event is missing (then the pool's only instruction), else the
		// event's "before" advanced by the instruction.
		var r0, r1 uint64
		switch {
		case next != nil:
			r0, r1 = next.before0, next.before1
		case s.op == opInitialize || !s.hasEvent:
			r0, r1 = b0.Post, b1.Post
		default:
			var err error
			if r0, r1, err = s.after(accounts); err != nil {
				return nil, fmt.Errorf("raydium: %s: pool %s: %w", tx.Signature, pool, err)
			}
		}
		e := chain.PoolEvent{Pool: pool, Block: tx.Slot, TxHash: tx.Signature, Trader: s.trader, Time: tx.Time}
		sync := e
		sync.Kind, sync.LogIndex = chain.EventSync, tx.EventIndex(2*s.ix)
		sync.Reserve0, sync.Reserve1 = big64(r0), big64(r1)
		e.LogIndex = tx.EventIndex(2*s.ix + 1)
		switch s.op {
		case opInitialize, opDeposit:
			e.Kind, e.Amount0In, e.Amount1In = chain.EventMint, big64(in0), big64(in1)
		case opWithdraw:
			e.Kind, e.Amount0Out, e.Amount1Out = chain.EventBurn, big64(out0), big64(out1)
		default:
			e.Kind = chain.EventSwap
			e.Amount0In, e.Amount1In, e.Amount0Out, e.Amount1Out = big64(in0), big64(in1), big64(out0), big64(out1)
		}
		out = append(out, sync, e)
	}
	return out, nil
}

// vaultDelta splits a vault's balance change into what it took in and what it paid out (one is 0).
func vaultDelta(b chain.SVMTokenBalance) (in, out uint64) {
	if b.Post >= b.Pre {
		return b.Post - b.Pre, 0
	}
	return 0, b.Pre - b.Post
}

// after is the pool's reserves after the instruction, from its event: see Indexer.
func (s *poolStep) after(accounts map[string][]byte) (r0, r1 uint64, err error) {
	r0, r1 = s.before0, s.before1
	add := func(r *uint64, v uint64) {
		if n := *r + v; n >= *r {
			*r = n
		} else {
			err = fmt.Errorf("reserve passes u64")
		}
	}
	sub := func(r *uint64, v uint64) {
		if v <= *r {
			*r -= v
		} else {
			err = fmt.Errorf("reserve below zero")
		}
	}
	switch s.op {
	case opDeposit:
		add(&r0, s.in0)
		add(&r1, s.in1)
		return r0, r1, err
	case opWithdraw:
		sub(&r0, s.out0)
		sub(&r1, s.out1)
		return r0, r1, err
	}
	rIn, rOut := &r0, &r1
	amountIn, amountOut := s.in0, s.out1
	if !s.zeroForOne {
		rIn, rOut, amountIn, amountOut = &r1, &r0, s.in1, s.out0
	}
	var cfg *AmmConfig
	if c, err := DecodeAmmConfig(accounts[s.config]); err == nil {
		cfg = &c
	}
	tradeFee := s.tradeFee
	if !s.hasTradeFields && cfg != nil { // a SwapEvent from before the creator fee: no creator fee, the trade fee on the input
		if f, ok := ceilDiv(big64(amountIn), cfg.TradeFeeRate, FeeRateDenominator); ok && f.IsUint64() {
			tradeFee = f.Uint64()
		}
	}
	var owed uint64 // of the input: protocol and fund fees
	if cfg != nil {
		owed = feeShare(tradeFee, cfg.ProtocolFeeRate) + feeShare(tradeFee, cfg.FundFeeRate)
	}
	add(rIn, amountIn)
	sub(rIn, owed)
	sub(rOut, amountOut)
	if s.creatorOnInput {
		sub(rIn, s.creatorFee)
	} else {
		sub(rOut, s.creatorFee)
	}
	return r0, r1, err
}

// feeShare is CPMM's protocol_fee and fund_fee: fee × rate / 10^6, rounded down.
func feeShare(fee, rate uint64) uint64 {
	v, ok := floorDiv(big64(fee), rate, FeeRateDenominator)
	if !ok || !v.IsUint64() {
		return 0
	}
	return v.Uint64()
}

// feeBps is an AmmConfig's trade fee rate in basis points, rounded to the nearest; 0 when data is
// not an AmmConfig.
func feeBps(data []byte) int {
	c, err := DecodeAmmConfig(data)
	if err != nil {
		return 0
	}
	return int((c.TradeFeeRate + 50) / 100) // millionths to ten-thousandths
}
