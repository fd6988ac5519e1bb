package raydium

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain/solana/program/vectors"
	"github.com/partner-platform/partnerd/chain/svm"
)

// vectorErrors are the vectors' failure names and the errors the math gives for them. Panic is the
// program aborting; InsufficientFunds is the harness's payer unable to pay what would take a
// vault past u64 (no holder can: a mint's supply is a u64).
var vectorErrors = map[string]error{
	"RequireGtViolated":            ErrZeroAmount,
	"ZeroTradingTokens":            ErrZeroTradingTokens,
	"InitLpAmountTooLess":          ErrInitLPTooLess,
	"EmptySupply":                  ErrEmptySupply,
	"TransferFeeCalculateNotMatch": ErrTransferFeeMismatch,
	"Panic":                        ErrOverflow,
	"InsufficientFunds":            ErrVaultOverflow,
}

// TestVectors holds the math to every vector of chain/solana/program/vectors: the SDK's figure
// (@raydium-io/raydium-sdk-v2's CurveCalculator and ConstantProductCurve) where the vector has no
// class, else the program's figure or failure for the class, field by field.
func TestVectors(t *testing.T) {
	f, err := vectors.Load()
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	failures := 0
	for i := range f.Vectors {
		v := &f.Vectors[i]
		got, err := runVector(v)
		cls := v.Class
		if cls == "" {
			cls = "sdk"
		}
		counts[v.Op+"/"+cls]++
		if problems := compareVector(v, got, err); len(problems) > 0 {
			failures++
			in, _ := json.Marshal(v)
			t.Errorf("%s (%s): %s\n  vector: %s", v.ID, cls, strings.Join(problems, "; "), in)
			if failures >= 20 {
				t.Fatalf("stopping after %d failing vectors", failures)
			}
		}
	}
	if len(counts) != len(f.Counts.ByOpAndClass) {
		t.Errorf("ran op/class pairs %v, the file counts %v", counts, f.Counts.ByOpAndClass)
	}
	for k, n := range f.Counts.ByOpAndClass {
		if counts[k] != n {
			t.Errorf("ran %d vectors of %s, the file counts %d", counts[k], k, n)
		}
	}
	for cls := range f.Classes {
		if f.Counts.ByClass[cls] == 0 {
			t.Errorf("class %s has no vector", cls)
		}
	}
	if f.Counts.ByClass["sdk"] < 1000 || f.Counts.Total != 1910 {
		t.Errorf("%d vectors, %d with the SDK's own figure: the file shrank", f.Counts.Total, f.Counts.ByClass["sdk"])
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = fmt.Sprintf("%s=%d", k, counts[k])
	}
	t.Logf("%d vectors (SDK %s, seed %d): %s", len(f.Vectors), f.Packages["@raydium-io/raydium-sdk-v2"].Version, f.Seed, strings.Join(keys, " "))
}

func vectorFee(f *vectors.TransferFee) *svm.FeeSchedule {
	if f == nil {
		return nil
	}
	return &svm.FeeSchedule{BasisPoints: f.BasisPoints, MaximumFee: f.MaximumFee}
}

// vectorSnapshot is the vector's pool: the config's rates, the pool's creator-fee mode, fees owed
// and LP supply, vaults holding the reserves plus the fees owed, the mints' transfer fees.
func vectorSnapshot(v *vectors.Vector) *Snapshot {
	owed := make([]uint64, 6)
	for i, o := range v.Owed {
		owed[i] = uint64(o)
	}
	s := &Snapshot{
		Config: AmmConfig{TradeFeeRate: v.Rates.Trade, ProtocolFeeRate: v.Rates.Protocol, FundFeeRate: v.Rates.Fund, CreatorFeeRate: v.Rates.Creator},
		Pool: PoolState{CreatorFeeOn: v.CreatorFeeOn, EnableCreatorFee: v.EnableCreatorFee, LPSupply: uint64(v.LPSupply),
			ProtocolFeesToken0: owed[0], ProtocolFeesToken1: owed[1], FundFeesToken0: owed[2], FundFeesToken1: owed[3],
			CreatorFeesToken0: owed[4], CreatorFeesToken1: owed[5]},
		TransferFee0: vectorFee(v.TransferFee0), TransferFee1: vectorFee(v.TransferFee1),
	}
	s.Vault0 = uint64(v.Reserve0) + owed[0] + owed[2] + owed[4]
	s.Vault1 = uint64(v.Reserve1) + owed[1] + owed[3] + owed[5]
	return s
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// runVector computes the vector's op and returns every figure under the vectors' names.
func runVector(v *vectors.Vector) (map[string]string, error) {
	s := vectorSnapshot(v)
	switch v.Op {
	case vectors.SwapBaseInput, vectors.SwapBaseOutput:
		var q SwapQuote
		var err error
		if v.Op == vectors.SwapBaseInput {
			q, err = s.SwapBaseInput(v.ZeroForOne, uint64(v.Amount))
		} else {
			q, err = s.SwapBaseOutput(v.ZeroForOne, uint64(v.Amount))
		}
		if err != nil {
			return nil, err
		}
		if q.CreatorFeeOnInput != v.CreatorFeeOnInput {
			return nil, fmt.Errorf("creator fee on input %v, the vector says %v", q.CreatorFeeOnInput, v.CreatorFeeOnInput)
		}
		return map[string]string{"in": u(q.AmountIn), "out": u(q.Received), "inputAmount": u(q.CurveIn), "outputAmount": u(q.AmountOut),
			"tradeFee": u(q.TradeFee), "protocolFee": u(q.ProtocolFee), "fundFee": u(q.FundFee), "creatorFee": u(q.CreatorFee),
			"newInputVaultAmount": u(q.NewReserveIn), "newOutputVaultAmount": u(q.NewReserveOut),
			"inputTransferFee": u(q.InputTransferFee), "outputTransferFee": u(q.OutputTransferFee)}, nil
	case vectors.Deposit:
		q, err := s.Deposit(uint64(v.LP))
		if err != nil {
			return nil, err
		}
		if q.Pay0 != q.Amount0+q.TransferFee0 || q.Pay1 != q.Amount1+q.TransferFee1 {
			return nil, fmt.Errorf("pay %d/%d is not amount + fee", q.Pay0, q.Pay1)
		}
		return map[string]string{"tokenAmount0": u(q.Amount0), "tokenAmount1": u(q.Amount1), "amount0": u(q.Amount0), "amount1": u(q.Amount1),
			"transferFee0": u(q.TransferFee0), "transferFee1": u(q.TransferFee1)}, nil
	case vectors.Withdraw:
		q, err := s.Withdraw(uint64(v.LP))
		if err != nil {
			return nil, err
		}
		if q.Receive0 != q.Amount0-q.TransferFee0 || q.Receive1 != q.Amount1-q.TransferFee1 {
			return nil, fmt.Errorf("receive %d/%d is not amount - fee", q.Receive0, q.Receive1)
		}
		return map[string]string{"tokenAmount0": u(q.Amount0), "tokenAmount1": u(q.Amount1), "amount0": u(q.Amount0), "amount1": u(q.Amount1),
			"transferFee0": u(q.TransferFee0), "transferFee1": u(q.TransferFee1)}, nil
	case vectors.Initialize:
		q, err := InitialLiquidity(uint64(v.Amount0), uint64(v.Amount1), s.TransferFee0, s.TransferFee1)
		if err != nil {
			return nil, err
		}
		return map[string]string{"vault0": u(q.Vault0), "vault1": u(q.Vault1), "liquidity": u(q.Liquidity), "creatorLp": u(q.CreatorLP)}, nil
	}
	return nil, fmt.Errorf("unknown op %q", v.Op)
}

// compareVector holds what the math gave to the vector's expectation: every field it names, and
// the fields an SDK figure leaves out at their SDK twin or zero (no transfer fee).
func compareVector(v *vectors.Vector, got map[string]string, err error) []string {
	want := v.Expected()
	if name, ok := want["error"]; ok {
		wantErr, known := vectorErrors[name]
		switch {
		case !known:
			return []string{"unknown error " + name}
		case err == nil:
			return []string{fmt.Sprintf("want error %s, got %v", name, got)}
		case !errors.Is(err, wantErr):
			return []string{fmt.Sprintf("want error %s (%v), got %v", name, wantErr, err)}
		}
		return nil
	}
	if err != nil {
		return []string{fmt.Sprintf("want %v, got error %v", want, err)}
	}
	defaults := map[string]string{"in": want["inputAmount"], "out": want["outputAmount"], "inputTransferFee": "0", "outputTransferFee": "0",
		"amount0": want["tokenAmount0"], "amount1": want["tokenAmount1"], "transferFee0": "0", "transferFee1": "0",
		"tokenAmount0": want["amount0"], "tokenAmount1": want["amount1"], // the program's figure names the vault side only
		"vault0": v.Amount0.String(), "vault1": v.Amount1.String()}
	var problems []string
	for k := range got {
		w, ok := want[k]
		if !ok {
			if w, ok = defaults[k]; !ok {
				problems = append(problems, "the vector has no "+k)
				continue
			}
		}
		if got[k] != w {
			problems = append(problems, fmt.Sprintf("%s = %s, want %s", k, got[k], w))
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			problems = append(problems, "the math has no "+k)
		}
	}
	sort.Strings(problems)
	return problems
}
