// Package vectors holds cpmm_sdk_vectors.json: Raydium CPMM curve cases whose expected figures
// come from @raydium-io/raydium-sdk-v2 (CurveCalculator and ConstantProductCurve, run from the SDK's
// published build by gen.sh), with the on-chain program's figure and case class where the program
// differs from the SDK by design. README.md beside this file lists the classes and how to
// regenerate. The program's test (TestSDKVectors) runs every vector in LiteSVM; quote math that
// models CPMM can hold itself to the same file through Load.
package vectors

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
)

//go:embed cpmm_sdk_vectors.json
var raw []byte

// File is the vectors file.
type File struct {
	Seed     int `json:"seed"`
	Packages map[string]struct {
		Version   string `json:"version"`
		Integrity string `json:"integrity"`
	} `json:"packages"`
	Classes map[string]string `json:"classes"` // class -> why the program's figure is not the SDK's
	Counts  struct {
		Total        int            `json:"total"`
		ByOp         map[string]int `json:"byOp"`
		ByClass      map[string]int `json:"byClass"` // "sdk": the SDK's figure is the program's
		ByOpAndClass map[string]int `json:"byOpAndClass"`
	} `json:"counts"`
	Vectors []Vector `json:"vectors"`
}

// Ops of a vector.
const (
	SwapBaseInput  = "swap_base_input"
	SwapBaseOutput = "swap_base_output"
	Deposit        = "deposit"
	Withdraw       = "withdraw"
	Initialize     = "initialize"
)

// Vector is one case. Amounts are u64 base units; token 0 and token 1 are the pool's (mint 0 < mint 1).
type Vector struct {
	ID    string `json:"id"`
	Op    string `json:"op"`
	Class string `json:"class,omitempty"` // set when Program is: the documented reason

	// swaps
	ZeroForOne        bool   `json:"zeroForOne,omitempty"` // token 0 in, token 1 out
	Rates             Rates  `json:"rates"`
	CreatorFeeOn      uint8  `json:"creatorFeeOn,omitempty"` // PoolState.creator_fee_on: 0 both tokens, 1 token 0 only, 2 token 1 only
	EnableCreatorFee  bool   `json:"enableCreatorFee,omitempty"`
	CreatorFeeOnInput bool   `json:"creatorFeeOnInput,omitempty"` // what the program derives, and the SDK was given
	Amount            Amount `json:"amount"`                      // amount_in (base input) or the amount_out received (base output)

	// swaps, deposit, withdraw: the reserves the curve sees (vaults less the fees owed) and the fees owed
	Reserve0 Amount   `json:"reserve0"`
	Reserve1 Amount   `json:"reserve1"`
	Owed     []Amount `json:"owed,omitempty"` // protocol 0, protocol 1, fund 0, fund 1, creator 0, creator 1

	// deposit, withdraw
	LP       Amount `json:"lp"`
	LPSupply Amount `json:"lpSupply"`

	// initialize: init_amount_0, init_amount_1
	Amount0 Amount `json:"amount0"`
	Amount1 Amount `json:"amount1"`

	// a Token-2022 transfer fee on token 0 / token 1 (absent: an SPL Token mint)
	TransferFee0 *TransferFee `json:"transferFee0,omitempty"`
	TransferFee1 *TransferFee `json:"transferFee1,omitempty"`

	// SDK is the SDK's figure (decimal strings, unbounded, possibly negative), or {"throws": message}.
	// Swaps: inputAmount, outputAmount, tradeFee, protocolFee, fundFee, creatorFee,
	// newInputVaultAmount, newOutputVaultAmount (CurveCalculator's SwapResult). Deposit and
	// withdraw: tokenAmount0, tokenAmount1. Initialize: liquidity, creatorLp.
	SDK map[string]string `json:"sdk"`
	// Program is the program's figure where it differs: {"error": name}, or the SDK's fields as the
	// program computes them plus, for swaps, in (paid), out (received), inputTransferFee,
	// outputTransferFee; deposit/withdraw: amount0, amount1 (vault side), transferFee0,
	// transferFee1; initialize: vault0, vault1, liquidity, creatorLp.
	Program map[string]string `json:"program,omitempty"`
}

// Rates are AmmConfig's rates, in millionths.
type Rates struct {
	Trade    uint64 `json:"trade"`
	Protocol uint64 `json:"protocol"`
	Fund     uint64 `json:"fund"`
	Creator  uint64 `json:"creator"`
}

// TransferFee is a Token-2022 mint's transfer fee: [basis points, "maximum fee"].
type TransferFee struct {
	BasisPoints uint16
	MaximumFee  uint64
}

func (f *TransferFee) UnmarshalJSON(b []byte) error {
	var v [2]json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if err := json.Unmarshal(v[0], &f.BasisPoints); err != nil {
		return err
	}
	var max Amount
	if err := json.Unmarshal(v[1], &max); err != nil {
		return err
	}
	f.MaximumFee = uint64(max)
	return nil
}

// Amount is a u64 written as a decimal string.
type Amount uint64

func (a *Amount) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return err
	}
	*a = Amount(v)
	return nil
}

// Expected is what the program must do: Program where the vector has one, else the SDK's figure.
func (v *Vector) Expected() map[string]string {
	if v.Program != nil {
		return v.Program
	}
	return v.SDK
}

// Load parses the embedded vectors and checks the file against its own counts.
func Load() (*File, error) {
	var f File
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("vectors: %w", err)
	}
	if len(f.Vectors) != f.Counts.Total {
		return nil, fmt.Errorf("vectors: %d vectors, the file counts %d", len(f.Vectors), f.Counts.Total)
	}
	seen := map[string]bool{}
	for i := range f.Vectors {
		v := &f.Vectors[i]
		if seen[v.ID] {
			return nil, fmt.Errorf("vectors: %s twice", v.ID)
		}
		seen[v.ID] = true
		if (v.Class == "") != (v.Program == nil) {
			return nil, fmt.Errorf("vectors: %s: a class goes with a program figure and only with one", v.ID)
		}
		if _, ok := f.Classes[v.Class]; v.Class != "" && !ok {
			return nil, fmt.Errorf("vectors: %s: class %q is not documented", v.ID, v.Class)
		}
	}
	return &f, nil
}

func (a Amount) String() string { return strconv.FormatUint(uint64(a), 10) }
