package raydium

import (
	"encoding/binary"
	"math/big"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// The decoder against transactions built with the package's encoders and quotes: each one as the
// program leaves it (the vaults' token balances before and after, the event it logs).

var (
	testMint0   = Pubkey{1, 7}
	testMint1   = Pubkey{2, 7} // above testMint0: token 1
	testCreator = Pubkey{3, 7}
	testTrader  = Pubkey{4, 7}
	testConfig  = AmmConfigAddress(0)
	testPool    = PoolAddress(testConfig, testMint0, testMint1)
	testKeys    = DerivePoolKeys(testConfig, testMint0, testMint1, Pubkey{})
	// the mainnet 0.25 % tier: 12 % of the trade fee to the protocol, 4 % to the fund
	testAmmConfig = AmmConfig{Index: 0, TradeFeeRate: 2500, ProtocolFeeRate: 120_000, FundFeeRate: 40_000}
)

// encodeAmmConfig lays an AmmConfig out as the program does.
func encodeAmmConfig(c AmmConfig) []byte {
	b := make([]byte, AmmConfigSize)
	copy(b, AmmConfigDiscriminator[:])
	b[8] = c.Bump
	if c.DisableCreatePool {
		b[9] = 1
	}
	binary.LittleEndian.PutUint16(b[10:], c.Index)
	for i, v := range []uint64{c.TradeFeeRate, c.ProtocolFeeRate, c.FundFeeRate, c.CreatePoolFee} {
		binary.LittleEndian.PutUint64(b[12+8*i:], v)
	}
	copy(b[44:], c.ProtocolOwner[:])
	copy(b[76:], c.FundOwner[:])
	binary.LittleEndian.PutUint64(b[108:], c.CreatorFeeRate)
	return b
}

func le64(b []byte, vs ...uint64) []byte {
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// swapEvent is the SwapEvent the program logs for a swap quoted as q on pool.
func swapEvent(pool Pubkey, q SwapQuote, inMint, outMint Pubkey) []byte {
	b := append(append([]byte{}, swapEventDiscriminator[:]...), pool[:]...)
	b = le64(b, q.ReserveIn, q.ReserveOut, q.CurveIn, q.AmountOut, q.InputTransferFee, q.OutputTransferFee)
	b = append(b, boolByte(q.BaseInput))
	b = append(append(b, inMint[:]...), outMint[:]...)
	b = le64(b, q.TradeFee, q.CreatorFee)
	return append(b, boolByte(q.CreatorFeeOnInput))
}

// lpEvent is the LpChangeEvent of a deposit (amounts reach the vaults) or withdraw (amounts the
// owner receives, fees withheld).
func lpEvent(pool Pubkey, lpBefore, before0, before1, amount0, amount1, fee0, fee1 uint64, withdraw bool) []byte {
	b := append(append([]byte{}, lpChangeEventDiscriminator[:]...), pool[:]...)
	b = le64(b, lpBefore, before0, before1, amount0, amount1, fee0, fee1)
	return append(b, boolByte(withdraw))
}

// svmIx is an encoded instruction as a transaction carries it.
func svmIx(in Instruction, outer, depth int, logged ...[]byte) chain.SVMInstruction {
	keys := make([]string, len(in.Accounts))
	for i, a := range in.Accounts {
		keys[i] = a.Pubkey.String()
	}
	return chain.SVMInstruction{Program: in.ProgramID.String(), Accounts: keys, Data: in.Data, Outer: outer, Depth: depth, LogData: logged}
}

// testTx is a transaction of instructions with the given token balances (account -> pre, post).
func testTx(ixs []chain.SVMInstruction, balances map[Pubkey][2]uint64) *chain.SVMTx {
	tx := &chain.SVMTx{Signature: "5igTestSignature", Slot: 1234, Time: 1_700_000_000, Index: 3, FeePayer: testTrader.String(),
		Instructions: ixs, LogsComplete: true}
	i := 0
	for k, b := range balances {
		tx.TokenBalances = append(tx.TokenBalances, chain.SVMTokenBalance{AccountIndex: i, Account: k.String(), Pre: b[0], Post: b[1]})
		i++
	}
	return tx
}

// testSnapshot is a pool with fees owed in both vaults.
func testSnapshot() Snapshot {
	return Snapshot{
		Pool: PoolState{AmmConfig: testConfig, Token0Vault: testKeys.Vault0, Token1Vault: testKeys.Vault1, LPMint: testKeys.LPMint,
			Token0Mint: testMint0, Token1Mint: testMint1, Token0Program: TokenProgram, Token1Program: TokenProgram,
			ObservationKey: testKeys.Observation, LPSupply: 1_000_000_000, ProtocolFeesToken0: 7_000, ProtocolFeesToken1: 3_000,
			FundFeesToken0: 2_000, FundFeesToken1: 1_000},
		Config: testAmmConfig,
		Vault0: 500_000_000_000 + 9_000, Vault1: 2_000_000_000 + 4_000,
		Now: 2_000_000_000,
	}
}

func ux(n *big.Int) uint64 {
	if n == nil {
		return 0
	}
	return n.Uint64()
}

var configData = map[string][]byte{testConfig.String(): encodeAmmConfig(testAmmConfig)}

// checkSyncThen checks that events are a Sync with reserves r0, r1 and then an event of kind.
func checkSyncThen(t *testing.T, tx *chain.SVMTx, events []chain.PoolEvent, ix int, kind chain.EventKind, r0, r1 uint64) chain.PoolEvent {
	t.Helper()
	if len(events) != 2 {
		t.Fatalf("%d events, want a Sync and a %s: %+v", len(events), kind, events)
	}
	s, e := events[0], events[1]
	if s.Kind != chain.EventSync || e.Kind != kind {
		t.Fatalf("events %s, %s; want sync, %s", s.Kind, e.Kind, kind)
	}
	if ux(s.Reserve0) != r0 || ux(s.Reserve1) != r1 {
		t.Errorf("Sync reserves %v, %v; want %d, %d", s.Reserve0, s.Reserve1, r0, r1)
	}
	if s.LogIndex != tx.EventIndex(2*ix) || e.LogIndex != tx.EventIndex(2*ix+1) {
		t.Errorf("log indexes %d, %d; want %d, %d", s.LogIndex, e.LogIndex, tx.EventIndex(2*ix), tx.EventIndex(2*ix+1))
	}
	for _, ev := range events {
		if ev.Pool != testPool.String() || ev.Block != tx.Slot || ev.TxHash != tx.Signature || ev.Time != tx.Time {
			t.Errorf("event %+v: want pool %s, block %d, tx %s, time %d", ev, testPool, tx.Slot, tx.Signature, tx.Time)
		}
	}
	return e
}

func TestIndexerInitialize(t *testing.T) {
	keys, in, err := Initialize(InitializeAccounts{Creator: testCreator, Config: testConfig, Mint0: testMint0, Mint1: testMint1,
		Token0Program: TokenProgram, Token1Program: Token2022Program, Creator0: Pubkey{9}, Creator1: Pubkey{10}}, 1_000_000, 4_000_000, 0)
	if err != nil {
		t.Fatal(err)
	}
	other := chain.SVMInstruction{Program: SystemProgram.String(), Data: []byte{2, 0, 0, 0}}
	tx := testTx([]chain.SVMInstruction{other, svmIx(in, 1, 1)}, map[Pubkey][2]uint64{
		keys.Vault0: {0, 1_000_000}, keys.Vault1: {0, 3_960_000}, // token 1 lost its 1 % transfer fee
		{9}: {5_000_000, 4_000_000},
	})
	ix := Indexer{}
	if got := ix.Accounts(tx); len(got) != 1 || got[0] != testConfig.String() {
		t.Errorf("Accounts = %v, want the config %s", got, testConfig)
	}
	pools, events, err := ix.Decode(tx, configData)
	if err != nil {
		t.Fatal(err)
	}
	want := chain.SVMPool{IndexedPool: chain.IndexedPool{Address: testPool.String(), Venue: "raydium", Token0: testMint0.String(),
		Token1: testMint1.String(), FeeBps: 25, Block: 1234, Time: 1_700_000_000}, LPMint: keys.LPMint.String()}
	if len(pools) != 1 || pools[0] != want {
		t.Errorf("pools %+v, want %+v", pools, want)
	}
	e := checkSyncThen(t, tx, events, 1, chain.EventMint, 1_000_000, 3_960_000)
	if ux(e.Amount0In) != 1_000_000 || ux(e.Amount1In) != 3_960_000 || e.Trader != testCreator.String() {
		t.Errorf("initialize's Mint %+v: want 1000000 and 3960000 in, by the creator", e)
	}

	// Without the config account the fee tier is unknown.
	pools, _, err = ix.Decode(tx, nil)
	if err != nil || len(pools) != 1 || pools[0].FeeBps != 0 {
		t.Errorf("without the config: pools %+v, err %v; want FeeBps 0", pools, err)
	}
}

// swapTx is a transaction with one swap quoted as q on the test snapshot s.
func swapTx(s Snapshot, q SwapQuote, logs bool) *chain.SVMTx {
	p := s.Pool
	inAcc, outAcc := Pubkey{11}, Pubkey{12}
	a := p.SwapAccounts(testPool, testTrader, q.ZeroForOne, inAcc, outAcc)
	var in Instruction
	if q.BaseInput {
		in = SwapBaseInput(a, q.AmountIn, 1)
	} else {
		in = SwapBaseOutput(a, q.AmountIn, q.Received)
	}
	var logged [][]byte
	if logs {
		logged = [][]byte{{1, 2, 3}, swapEvent(testPool, q, a.InputMint, a.OutputMint)}
	}
	vIn, vOut := s.Vault0, s.Vault1
	if !q.ZeroForOne {
		vIn, vOut = vOut, vIn
	}
	tx := testTx([]chain.SVMInstruction{svmIx(in, 0, 1, logged...)}, map[Pubkey][2]uint64{
		a.InputVault: {vIn, vIn + q.CurveIn}, a.OutputVault: {vOut, vOut - q.AmountOut},
		inAcc: {q.AmountIn * 2, q.AmountIn}, outAcc: {0, q.Received},
	})
	tx.LogsComplete = logs
	return tx
}

func TestIndexerSwaps(t *testing.T) {
	s := testSnapshot()
	for _, c := range []struct {
		name       string
		zeroForOne bool
		baseInput  bool
		amount     uint64
	}{
		{"base input, 0 for 1", true, true, 3_000_000_000},
		{"base input, 1 for 0", false, true, 20_000_000},
		{"base output, 0 for 1", true, false, 5_000_000},
		{"base output, 1 for 0", false, false, 900_000_000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var q SwapQuote
			var err error
			if c.baseInput {
				q, err = s.SwapBaseInput(c.zeroForOne, c.amount)
			} else {
				q, err = s.SwapBaseOutput(c.zeroForOne, c.amount)
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.ProtocolFee == 0 || q.FundFee == 0 {
				t.Fatalf("quote %+v owes no protocol or fund fee: the test would not tell", q)
			}
			rIn, rOut := q.ReservesAfter()
			r0, r1 := rIn, rOut
			in0, in1, out0, out1 := q.CurveIn, uint64(0), uint64(0), q.AmountOut
			if !c.zeroForOne {
				r0, r1 = rOut, rIn
				in0, in1, out0, out1 = 0, q.CurveIn, q.AmountOut, 0
			}
			tx := swapTx(s, q, true)
			if got := (Indexer{}).Accounts(tx); len(got) != 1 || got[0] != testConfig.String() {
				t.Errorf("Accounts = %v, want the config", got)
			}
			pools, events, err := Indexer{}.Decode(tx, configData)
			if err != nil || len(pools) != 0 {
				t.Fatalf("pools %v, err %v", pools, err)
			}
			e := checkSyncThen(t, tx, events, 0, chain.EventSwap, r0, r1)
			if ux(e.Amount0In) != in0 || ux(e.Amount1In) != in1 || ux(e.Amount0Out) != out0 || ux(e.Amount1Out) != out1 {
				t.Errorf("swap amounts in %v, %v out %v, %v; want %d, %d, %d, %d", e.Amount0In, e.Amount1In, e.Amount0Out, e.Amount1Out, in0, in1, out0, out1)
			}
			if e.Trader != testTrader.String() {
				t.Errorf("trader %s, want the payer %s", e.Trader, testTrader)
			}
			// The reserves are the vaults less what is owed after the swap.
			owed0 := s.Pool.ProtocolFeesToken0 + s.Pool.FundFeesToken0
			owed1 := s.Pool.ProtocolFeesToken1 + s.Pool.FundFeesToken1
			if c.zeroForOne {
				owed0 += q.ProtocolFee + q.FundFee
			} else {
				owed1 += q.ProtocolFee + q.FundFee
			}
			if b0, _ := tx.TokenBalance(testKeys.Vault0.String()); b0.Post-owed0 != r0 {
				t.Errorf("reserve 0 %d, vault less owed %d", r0, b0.Post-owed0)
			}

			// Without the config, the protocol and fund shares are not known: left in the reserve.
			_, events, err = Indexer{}.Decode(tx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c.zeroForOne {
				checkSyncThen(t, tx, events, 0, chain.EventSwap, r0+q.ProtocolFee+q.FundFee, r1)
			} else {
				checkSyncThen(t, tx, events, 0, chain.EventSwap, r0, r1+q.ProtocolFee+q.FundFee)
			}

			// Without the logs: the amounts from the vaults, the reserves their balances.
			tx = swapTx(s, q, false)
			_, events, err = Indexer{}.Decode(tx, configData)
			if err != nil {
				t.Fatal(err)
			}
			v0, _ := tx.TokenBalance(testKeys.Vault0.String())
			v1, _ := tx.TokenBalance(testKeys.Vault1.String())
			e = checkSyncThen(t, tx, events, 0, chain.EventSwap, v0.Post, v1.Post)
			if ux(e.Amount0In) != in0 || ux(e.Amount1In) != in1 || ux(e.Amount0Out) != out0 || ux(e.Amount1Out) != out1 {
				t.Errorf("without logs: swap amounts %v, %v, %v, %v", e.Amount0In, e.Amount1In, e.Amount0Out, e.Amount1Out)
			}
		})
	}
}

// TestIndexerCreatorFee: a pool with the creator fee on, taken on the input and on the output.
func TestIndexerCreatorFee(t *testing.T) {
	for _, mode := range []uint8{CreatorFeeOnlyToken0, CreatorFeeOnlyToken1} {
		s := testSnapshot()
		s.Config.CreatorFeeRate = 1_000
		s.Pool.EnableCreatorFee, s.Pool.CreatorFeeOn = true, mode
		s.Pool.CreatorFeesToken0, s.Pool.CreatorFeesToken1 = 111, 222
		s.Vault0 += 111
		s.Vault1 += 222
		q, err := s.SwapBaseInput(true, 2_000_000_000)
		if err != nil {
			t.Fatal(err)
		}
		if q.CreatorFee == 0 || q.CreatorFeeOnInput != (mode == CreatorFeeOnlyToken0) {
			t.Fatalf("mode %d: quote %+v", mode, q)
		}
		rIn, rOut := q.ReservesAfter()
		cfg := map[string][]byte{testConfig.String(): encodeAmmConfig(s.Config)}
		tx := swapTx(s, q, true)
		_, events, err := Indexer{}.Decode(tx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		checkSyncThen(t, tx, events, 0, chain.EventSwap, rIn, rOut)
	}
}

func TestIndexerDepositWithdraw(t *testing.T) {
	s := testSnapshot()
	r0, r1, _ := s.Reserves()
	la := s.Pool.LiquidityAccounts(testPool, testTrader, Pubkey{20}, Pubkey{21}, Pubkey{22})

	dq, err := s.Deposit(10_000_000)
	if err != nil {
		t.Fatal(err)
	}
	in := Deposit(la, dq.LP, dq.Pay0, dq.Pay1)
	tx := testTx([]chain.SVMInstruction{svmIx(in, 0, 1, lpEvent(testPool, s.Pool.LPSupply, r0, r1, dq.Amount0, dq.Amount1, 0, 0, false))},
		map[Pubkey][2]uint64{testKeys.Vault0: {s.Vault0, s.Vault0 + dq.Amount0}, testKeys.Vault1: {s.Vault1, s.Vault1 + dq.Amount1}})
	_, events, err := Indexer{}.Decode(tx, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := checkSyncThen(t, tx, events, 0, chain.EventMint, r0+dq.Amount0, r1+dq.Amount1)
	if ux(e.Amount0In) != dq.Amount0 || ux(e.Amount1In) != dq.Amount1 || e.Amount0Out != nil || e.Trader != testTrader.String() {
		t.Errorf("deposit's Mint %+v; want %d and %d in by the owner", e, dq.Amount0, dq.Amount1)
	}

	wq, err := s.Withdraw(5_000_000)
	if err != nil {
		t.Fatal(err)
	}
	fee1 := wq.Amount1 / 100 // as if token 1 withheld 1 %
	in = Withdraw(la, wq.LP, 0, 0)
	tx = testTx([]chain.SVMInstruction{svmIx(in, 0, 1, lpEvent(testPool, s.Pool.LPSupply, r0, r1, wq.Amount0, wq.Amount1-fee1, 0, fee1, true))},
		map[Pubkey][2]uint64{testKeys.Vault0: {s.Vault0, s.Vault0 - wq.Amount0}, testKeys.Vault1: {s.Vault1, s.Vault1 - wq.Amount1}})
	_, events, err = Indexer{}.Decode(tx, nil)
	if err != nil {
		t.Fatal(err)
	}
	e = checkSyncThen(t, tx, events, 0, chain.EventBurn, r0-wq.Amount0, r1-wq.Amount1)
	if ux(e.Amount0Out) != wq.Amount0 || ux(e.Amount1Out) != wq.Amount1 || e.Amount0In != nil {
		t.Errorf("withdraw's Burn %+v; want %d and %d out of the vaults", e, wq.Amount0, wq.Amount1)
	}
}

// TestIndexerSeveralOnOnePool: a route through the pool twice, the second swap invoked by another
// program, in one transaction: each swap's amounts from its event, the first one's reserves after
// it from the second's "before".
func TestIndexerSeveralOnOnePool(t *testing.T) {
	s := testSnapshot()
	q1, err := s.SwapBaseInput(true, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	rIn, rOut := q1.ReservesAfter()
	s2 := s
	s2.Vault0, s2.Vault1 = s.Vault0+q1.CurveIn, s.Vault1-q1.AmountOut
	s2.Pool.ProtocolFeesToken0 += q1.ProtocolFee
	s2.Pool.FundFeesToken0 += q1.FundFee
	if r0, r1, _ := s2.Reserves(); r0 != rIn || r1 != rOut {
		t.Fatalf("the snapshot after the first swap has reserves %d, %d; ReservesAfter says %d, %d", r0, r1, rIn, rOut)
	}
	q2, err := s2.SwapBaseOutput(false, 300_000_000)
	if err != nil {
		t.Fatal(err)
	}
	fIn, fOut := q2.ReservesAfter() // token 1 in
	a1 := s.Pool.SwapAccounts(testPool, testTrader, true, Pubkey{11}, Pubkey{12})
	a2 := s.Pool.SwapAccounts(testPool, testTrader, false, Pubkey{12}, Pubkey{11})
	router := chain.SVMInstruction{Program: Pubkey{99}.String(), Data: []byte{1}, Outer: 1, Depth: 1}
	tx := testTx([]chain.SVMInstruction{
		svmIx(SwapBaseInput(a1, q1.AmountIn, 1), 0, 1, swapEvent(testPool, q1, testMint0, testMint1)),
		router,
		svmIx(SwapBaseOutput(a2, q2.AmountIn, q2.Received), 1, 2, swapEvent(testPool, q2, testMint1, testMint0)),
	}, map[Pubkey][2]uint64{
		testKeys.Vault0: {s.Vault0, s.Vault0 + q1.CurveIn - q2.AmountOut},
		testKeys.Vault1: {s.Vault1, s.Vault1 - q1.AmountOut + q2.CurveIn},
	})
	_, events, err := Indexer{}.Decode(tx, configData)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 4 {
		t.Fatalf("%d events, want two Syncs and two Swaps", len(events))
	}
	e1 := checkSyncThen(t, tx, events[:2], 0, chain.EventSwap, rIn, rOut)
	e2 := checkSyncThen(t, tx, events[2:], 2, chain.EventSwap, fOut, fIn)
	if ux(e1.Amount0In) != q1.CurveIn || ux(e1.Amount1Out) != q1.AmountOut || ux(e2.Amount1In) != q2.CurveIn || ux(e2.Amount0Out) != q2.AmountOut {
		t.Errorf("swaps %+v and %+v: want each one's own amounts", e1, e2)
	}

	// Without the logs the two cannot be told apart.
	tx.LogsComplete = false
	for i := range tx.Instructions {
		tx.Instructions[i].LogData = nil
	}
	if _, _, err := (Indexer{}).Decode(tx, configData); err == nil || !strings.Contains(err.Error(), "cannot be told apart") {
		t.Errorf("two swaps without logs: err %v, want them refused", err)
	}
}

// TestIndexerSkips: other programs, the program's other instructions and an old SwapEvent without
// the trade fee (computed from the config then).
func TestIndexerSkips(t *testing.T) {
	s := testSnapshot()
	q, err := s.SwapBaseInput(true, 1_000_000_000)
	if err != nil {
		t.Fatal(err)
	}
	tx := swapTx(s, q, true)
	tx.Instructions[0].LogData[1] = tx.Instructions[0].LogData[1][:swapEventMinSize] // before the creator fee
	collect := discriminator("global:collect_protocol_fee")
	admin := chain.SVMInstruction{Program: programID, Data: append(collect[:], 0, 0), Outer: 1, Depth: 1}
	short := chain.SVMInstruction{Program: programID, Data: []byte{1, 2}, Outer: 2, Depth: 1}
	tx.Instructions = append(tx.Instructions, admin, short)
	pools, events, err := Indexer{}.Decode(tx, configData)
	if err != nil || len(pools) != 0 {
		t.Fatalf("pools %v, err %v", pools, err)
	}
	rIn, rOut := q.ReservesAfter()
	checkSyncThen(t, tx, events, 0, chain.EventSwap, rIn, rOut)

	// A swap of the program with too few accounts in a successful transaction is a contradiction.
	tx.Instructions[0].Accounts = tx.Instructions[0].Accounts[:5]
	if _, _, err := (Indexer{}).Decode(tx, configData); err == nil {
		t.Error("a swap with 5 accounts decoded")
	}

	// An event of another pool in the swap's logs is a contradiction too.
	tx = swapTx(s, q, true)
	tx.Instructions[0].LogData[1] = swapEvent(Pubkey{77}, q, testMint0, testMint1)
	if _, _, err := (Indexer{}).Decode(tx, configData); err == nil {
		t.Error("a swap logging another pool's event decoded")
	}
}

func TestEventDiscriminators(t *testing.T) {
	// as the program (chain/solana/program/src/cpmm.h) and Anchor write them
	if want := [8]byte{64, 198, 205, 232, 38, 8, 113, 226}; swapEventDiscriminator != want {
		t.Errorf("SwapEvent discriminator %v, want %v", swapEventDiscriminator, want)
	}
	if want := [8]byte{121, 163, 205, 201, 57, 218, 117, 60}; lpChangeEventDiscriminator != want {
		t.Errorf("LpChangeEvent discriminator %v, want %v", lpChangeEventDiscriminator, want)
	}
	if len(swapEvent(testPool, SwapQuote{}, testMint0, testMint1)) != swapEventFullSize || swapEventFullSize != 170 || lpChangeEventSize != 97 {
		t.Error("event sizes differ from the program's (170 and 97 bytes)")
	}
}
