package uniswapv2

// The vectors in testdata/vectors.json come from the official Uniswap
// V2 SDK (@uniswap/v2-sdk and @uniswap/sdk-core, exact versions pinned in
// testdata/package.json and package-lock.json): testdata/gen.mjs
// builds seeded pseudo-random pairs and routes with the SDK's Pair, Route and
// Trade objects and records what pair.getOutputAmount, pair.getInputAmount,
// Trade.exactIn, trade.priceImpact and trade.minimumAmountOut return or
// throw. Regenerate them with
//
//	npm ci --prefix venue/uniswapv2/testdata && node venue/uniswapv2/testdata/gen.mjs
//
// The SDK's pairs always charge 0.3% (feeBps 30); the other fees (25 for
// PancakeSwap V2, 0, 100) are checked against hand-written formulas below.

import (
	"encoding/json"
	"errors"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

type v2Vectors struct {
	SDK     map[string]string `json:"sdk"`
	FeeBps  int               `json:"feeBps"`
	Counts  map[string]int    `json:"counts"`
	ExactIn []struct {
		Hops []struct {
			ReserveIn  string `json:"reserveIn"`
			ReserveOut string `json:"reserveOut"`
		} `json:"hops"`
		AmountIn    string   `json:"amountIn"`
		Amounts     []string `json:"amounts"`
		PriceImpact *struct {
			Numerator     string `json:"numerator"`
			Denominator   string `json:"denominator"`
			FixedDecimals int    `json:"fixedDecimals"`
			Fixed         string `json:"fixed"`
		} `json:"priceImpact"`
		MinOut []struct {
			SlippageBps int    `json:"slippageBps"`
			Amount      string `json:"amount"`
		} `json:"minOut"`
		Error string `json:"error"`
	} `json:"exactIn"`
	GetInputAmount []struct {
		ReserveIn  string `json:"reserveIn"`
		ReserveOut string `json:"reserveOut"`
		AmountOut  string `json:"amountOut"`
		AmountIn   string `json:"amountIn"`
		Error      string `json:"error"`
	} `json:"getInputAmount"`
}

const v2VectorsDir = "testdata"

func loadV2Vectors(t *testing.T) *v2Vectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(v2VectorsDir, "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v v2Vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("vectors.json: %v", err)
	}
	return &v
}

// sdkError maps the SDK's error class names to this package's errors.
var sdkError = map[string]error{
	"InsufficientInputAmountError": ErrInsufficientInput,
	"InsufficientReservesError":    ErrInsufficientLiquidity,
}

func bi(t testing.TB, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not a decimal integer: %q", s)
	}
	return v
}

// TestV2SDKVectorCounts fails if vectors.json is empty, truncated or stale:
// it must hold at least the numbers of cases the task asks for, its own
// counts must match its contents, and it must come from the SDK versions
// package.json pins.
func TestV2SDKVectorCounts(t *testing.T) {
	v := loadV2Vectors(t)
	var ok, twoHopOK, twoHop, failed, inOK, inFailed int
	for _, c := range v.ExactIn {
		if len(c.Hops) == 2 {
			twoHop++
		}
		if c.Error != "" {
			failed++
			continue
		}
		ok++
		if len(c.Hops) == 2 {
			twoHopOK++
		}
	}
	for _, c := range v.GetInputAmount {
		if c.Error != "" {
			inFailed++
		} else {
			inOK++
		}
	}
	for _, m := range []struct {
		name     string
		got, min int
	}{
		{"exact-in quotes that succeed", ok, 1000},
		{"two-hop exact-in quotes that succeed", twoHopOK, 300},
		{"exact-in quotes that fail", failed, 50},
		{"getInputAmount cases", len(v.GetInputAmount), 200},
		{"getInputAmount cases that succeed", inOK, 200},
		{"getInputAmount cases that fail", inFailed, 20},
	} {
		if m.got < m.min {
			t.Errorf("vectors.json has %d %s, want at least %d", m.got, m.name, m.min)
		}
	}
	for name, got := range map[string]int{
		"exactIn":              len(v.ExactIn),
		"exactInTwoHop":        twoHop,
		"exactInTwoHopOK":      twoHopOK,
		"exactInErrors":        failed,
		"getInputAmount":       len(v.GetInputAmount),
		"getInputAmountErrors": inFailed,
	} {
		if want, found := v.Counts[name]; !found || want != got {
			t.Errorf("vectors.json: counts.%s = %d (present %v), but the file has %d", name, want, found, got)
		}
	}
	if v.FeeBps != UniswapV2FeeBps {
		t.Errorf("vectors.json: feeBps = %d, want %d", v.FeeBps, UniswapV2FeeBps)
	}

	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	data, err := os.ReadFile(filepath.Join(v2VectorsDir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"@uniswap/v2-sdk", "@uniswap/sdk-core"} {
		if pin := pkg.Dependencies[name]; pin == "" || pin != v.SDK[name] {
			t.Errorf("%s: package.json pins %q, vectors.json was generated with %q", name, pin, v.SDK[name])
		}
	}
}

// TestV2SDKVectorsExactIn checks every exact-input case of the SDK: the
// amounts of each hop (RouteAmountOut and AmountOut), the error where the SDK
// throws, the price impact as an exact fraction, its rendering by
// Percent.toFixed, and minimumAmountOut.
func TestV2SDKVectorsExactIn(t *testing.T) {
	v := loadV2Vectors(t)
	for i, c := range v.ExactIn {
		hops := make([]Hop, len(c.Hops))
		for j, h := range c.Hops {
			hops[j] = Hop{ReserveIn: bi(t, h.ReserveIn), ReserveOut: bi(t, h.ReserveOut), FeeBps: v.FeeBps}
		}
		amountIn := bi(t, c.AmountIn)
		amounts, err := RouteAmountOut(amountIn, hops)
		if c.Error != "" {
			want, known := sdkError[c.Error]
			if !known {
				t.Fatalf("case %d: unknown SDK error %q", i, c.Error)
			}
			if !errors.Is(err, want) {
				t.Errorf("case %d (%s): err = %v, want %v (SDK %s)", i, c.AmountIn, err, want, c.Error)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d: unexpected error %v", i, err)
			continue
		}
		if len(amounts) != len(c.Amounts) || len(c.Amounts) != len(hops)+1 {
			t.Errorf("case %d: %d amounts, SDK has %d for %d hops", i, len(amounts), len(c.Amounts), len(hops))
			continue
		}
		for j, want := range c.Amounts {
			if amounts[j].Cmp(bi(t, want)) != 0 {
				t.Errorf("case %d: amounts[%d] = %s, SDK %s", i, j, amounts[j], want)
			}
			if j > 0 {
				out, err := AmountOut(bi(t, c.Amounts[j-1]), hops[j-1].ReserveIn, hops[j-1].ReserveOut, v.FeeBps)
				if err != nil || out.String() != want {
					t.Errorf("case %d: AmountOut of hop %d = %v, %v, SDK %s", i, j-1, out, err, want)
				}
			}
		}
		out := amounts[len(amounts)-1]

		if c.PriceImpact == nil {
			t.Fatalf("case %d: no price impact", i)
		}
		want := new(big.Rat).SetFrac(bi(t, c.PriceImpact.Numerator), bi(t, c.PriceImpact.Denominator))
		got := PriceImpact(amountIn, out, hops)
		if got == nil || got.Cmp(want) != 0 {
			t.Errorf("case %d: price impact %v, SDK %v", i, got, want)
		}
		// The SDK pads with zeros; FormatPercent trims them.
		fixed := c.PriceImpact.Fixed
		if strings.Contains(fixed, ".") {
			fixed = strings.TrimSuffix(strings.TrimRight(fixed, "0"), ".")
		}
		if s := chain.FormatPercent(want, c.PriceImpact.FixedDecimals); s != fixed {
			t.Errorf("case %d: chain.FormatPercent(%v, %d) = %q, SDK toFixed %q", i, want, c.PriceImpact.FixedDecimals, s, c.PriceImpact.Fixed)
		}

		if len(c.MinOut) == 0 {
			t.Fatalf("case %d: no minOut", i)
		}
		for _, m := range c.MinOut {
			if got := chain.MinOut(out, m.SlippageBps); got.String() != m.Amount {
				t.Errorf("case %d: chain.MinOut(%s, %d) = %s, SDK %s", i, out, m.SlippageBps, got, m.Amount)
			}
		}
	}
}

// TestV2SDKVectorsAmountIn checks every getInputAmount case of the SDK.
func TestV2SDKVectorsAmountIn(t *testing.T) {
	v := loadV2Vectors(t)
	for i, c := range v.GetInputAmount {
		got, err := AmountIn(bi(t, c.AmountOut), bi(t, c.ReserveIn), bi(t, c.ReserveOut), v.FeeBps)
		if c.Error != "" {
			if want := sdkError[c.Error]; want == nil || !errors.Is(err, want) {
				t.Errorf("case %d: err = %v, SDK %s", i, err, c.Error)
			}
			continue
		}
		if err != nil || got.String() != c.AmountIn {
			t.Errorf("case %d: AmountIn(%s, %s, %s) = %v, %v, SDK %s", i, c.AmountOut, c.ReserveIn, c.ReserveOut, got, err, c.AmountIn)
		}
	}
}

// Hand-written formulas of the pair contracts, each in its own terms.

// uniswapAmountOut is UniswapV2Library.getAmountOut (997/1000).
func uniswapAmountOut(in, rIn, rOut *big.Int) *big.Int {
	withFee := new(big.Int).Mul(in, big.NewInt(997))
	num := new(big.Int).Mul(withFee, rOut)
	den := new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(1000)), withFee)
	return num.Div(num, den)
}

// uniswapAmountIn is UniswapV2Library.getAmountIn (1000/997).
func uniswapAmountIn(out, rIn, rOut *big.Int) *big.Int {
	num := new(big.Int).Mul(new(big.Int).Mul(rIn, out), big.NewInt(1000))
	den := new(big.Int).Mul(new(big.Int).Sub(rOut, out), big.NewInt(997))
	return num.Add(num.Div(num, den), big.NewInt(1))
}

// pancakeAmountOut is PancakeLibrary.getAmountOut of PancakeSwap V2 (9975/10000).
func pancakeAmountOut(in, rIn, rOut *big.Int) *big.Int {
	withFee := new(big.Int).Mul(in, big.NewInt(9975))
	num := new(big.Int).Mul(withFee, rOut)
	den := new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(10000)), withFee)
	return num.Div(num, den)
}

// pancakeAmountIn is PancakeLibrary.getAmountIn (10000/9975).
func pancakeAmountIn(out, rIn, rOut *big.Int) *big.Int {
	num := new(big.Int).Mul(new(big.Int).Mul(rIn, out), big.NewInt(10000))
	den := new(big.Int).Mul(new(big.Int).Sub(rOut, out), big.NewInt(9975))
	return num.Add(num.Div(num, den), big.NewInt(1))
}

// feelessAmountOut is x*y=k without a fee: in*rOut/(rIn+in).
func feelessAmountOut(in, rIn, rOut *big.Int) *big.Int {
	num := new(big.Int).Mul(in, rOut)
	return num.Div(num, new(big.Int).Add(rIn, in))
}

// feelessAmountIn is rIn*out/(rOut-out) + 1.
func feelessAmountIn(out, rIn, rOut *big.Int) *big.Int {
	num := new(big.Int).Mul(rIn, out)
	num.Div(num, new(big.Int).Sub(rOut, out))
	return num.Add(num, big.NewInt(1))
}

// onePercentAmountOut charges 1% as 99/100.
func onePercentAmountOut(in, rIn, rOut *big.Int) *big.Int {
	withFee := new(big.Int).Mul(in, big.NewInt(99))
	num := new(big.Int).Mul(withFee, rOut)
	den := new(big.Int).Add(new(big.Int).Mul(rIn, big.NewInt(100)), withFee)
	return num.Div(num, den)
}

// onePercentAmountIn is rIn*out*100/((rOut-out)*99) + 1.
func onePercentAmountIn(out, rIn, rOut *big.Int) *big.Int {
	num := new(big.Int).Mul(new(big.Int).Mul(rIn, out), big.NewInt(100))
	den := new(big.Int).Mul(new(big.Int).Sub(rOut, out), big.NewInt(99))
	return num.Add(num.Div(num, den), big.NewInt(1))
}

var handFormulas = []struct {
	name      string
	feeBps    int
	amountOut func(in, rIn, rOut *big.Int) *big.Int
	amountIn  func(out, rIn, rOut *big.Int) *big.Int
}{
	{"UniswapV2 997/1000", UniswapV2FeeBps, uniswapAmountOut, uniswapAmountIn},
	{"PancakeSwapV2 9975/10000", PancakeSwapV2FeeBps, pancakeAmountOut, pancakeAmountIn},
	{"no fee", 0, feelessAmountOut, feelessAmountIn},
	{"1% as 99/100", 100, onePercentAmountOut, onePercentAmountIn},
}

// randAmount returns a random positive integer of up to maxBits bits,
// uniform in bit length.
func randAmount(r *rand.Rand, maxBits int) *big.Int {
	bits := 1 + r.IntN(maxBits)
	v := new(big.Int)
	for v.BitLen() < bits {
		v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(r.Uint64()))
	}
	v.Rsh(v, uint(v.BitLen()-bits))
	return v
}

// TestAmountOutHandFormulas checks AmountOut and AmountIn against each
// contract's own formula (feeBps 30 must equal the pair's 997/1000 exactly)
// on fixed values computed by hand and on random ones.
func TestAmountOutHandFormulas(t *testing.T) {
	e18 := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	// 1e18 into a 100e18/200e18 pool, and 1e18 out of it.
	fixed := map[int][2]string{
		30:  {"1974316068794122597", "504024636724243082"},
		25:  {"1975296418228173964", "503771992796060504"},
		0:   {"1980198019801980198", "502512562814070352"},
		100: {"1960590157441330824", "507588447286939750"},
	}
	for _, f := range handFormulas {
		want := fixed[f.feeBps]
		out, err := AmountOut(e18(1), e18(100), e18(200), f.feeBps)
		if err != nil || out.String() != want[0] {
			t.Errorf("%s: AmountOut(1e18, 100e18, 200e18) = %v, %v, want %s", f.name, out, err, want[0])
		}
		in, err := AmountIn(e18(1), e18(100), e18(200), f.feeBps)
		if err != nil || in.String() != want[1] {
			t.Errorf("%s: AmountIn(1e18, 100e18, 200e18) = %v, %v, want %s", f.name, in, err, want[1])
		}
	}

	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range handFormulas {
		checked := 0
		for i := 0; i < 3000; i++ {
			rIn, rOut := randAmount(r, 112), randAmount(r, 112)
			in := randAmount(r, rIn.BitLen()+8)
			want := f.amountOut(in, rIn, rOut)
			got, err := AmountOut(in, rIn, rOut, f.feeBps)
			if want.Sign() == 0 {
				if !errors.Is(err, ErrInsufficientInput) {
					t.Fatalf("%s: AmountOut(%s, %s, %s) = %v, %v, want ErrInsufficientInput", f.name, in, rIn, rOut, got, err)
				}
			} else if err != nil || got.Cmp(want) != 0 {
				t.Fatalf("%s: AmountOut(%s, %s, %s) = %v, %v, want %s", f.name, in, rIn, rOut, got, err, want)
			} else {
				checked++
			}

			out := new(big.Int).Mod(randAmount(r, rOut.BitLen()+8), rOut) // 0 <= out < rOut
			if out.Sign() == 0 {
				continue
			}
			gotIn, err := AmountIn(out, rIn, rOut, f.feeBps)
			if wantIn := f.amountIn(out, rIn, rOut); err != nil || gotIn.Cmp(wantIn) != 0 {
				t.Fatalf("%s: AmountIn(%s, %s, %s) = %v, %v, want %s", f.name, out, rIn, rOut, gotIn, err, wantIn)
			}
		}
		if checked < 1000 {
			t.Errorf("%s: only %d random cases had an output", f.name, checked)
		}
	}
}

func TestAmountOutErrors(t *testing.T) {
	one, ten := big.NewInt(1), big.NewInt(10)
	for _, tc := range []struct {
		name          string
		in, rIn, rOut *big.Int
		fee           int
		want          error
	}{
		{"zero in", big.NewInt(0), ten, ten, 30, ErrInsufficientInput},
		{"negative in", big.NewInt(-1), ten, ten, 30, ErrInsufficientInput},
		{"nil in", nil, ten, ten, 30, ErrInsufficientInput},
		{"zero reserve in", one, big.NewInt(0), ten, 30, ErrInsufficientLiquidity},
		{"zero reserve out", one, ten, big.NewInt(0), 30, ErrInsufficientLiquidity},
		{"negative reserve", one, ten, big.NewInt(-10), 30, ErrInsufficientLiquidity},
		{"nil reserve", one, nil, ten, 30, ErrInsufficientLiquidity},
		// 1*9970*10/(10*10000+9970) = 0.9...: the output rounds down to 0.
		{"zero output", one, ten, ten, 30, ErrInsufficientInput},
		{"zero output, deep pool", big.NewInt(1000), new(big.Int).Lsh(one, 111), big.NewInt(1000), 30, ErrInsufficientInput},
		{"fee -1", one, ten, ten, -1, ErrInvalidFee},
		{"fee 10000", one, ten, ten, 10000, ErrInvalidFee},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AmountOut(tc.in, tc.rIn, tc.rOut, tc.fee)
			if !errors.Is(err, tc.want) || got != nil {
				t.Errorf("AmountOut = %v, %v, want %v", got, err, tc.want)
			}
		})
	}

	// The smallest input that gives 1 out, with no fee: 1 into 1/2 gives 1.
	if got, err := AmountOut(one, one, big.NewInt(2), 0); err != nil || got.Cmp(one) != 0 {
		t.Errorf("AmountOut(1, 1, 2, 0) = %v, %v, want 1", got, err)
	}
	// Fee 9999 keeps 1/10000 of the input.
	if got, err := AmountOut(big.NewInt(10000), big.NewInt(1), big.NewInt(1000), 9999); err != nil || got.String() != "500" {
		t.Errorf("AmountOut(10000, 1, 1000, 9999) = %v, %v, want 500", got, err)
	}
	// More than the reserves in still gives less than the reserve out.
	huge := new(big.Int).Lsh(one, 300)
	if got, err := AmountOut(huge, ten, ten, 30); err != nil || got.String() != "9" {
		t.Errorf("AmountOut(2^300, 10, 10) = %v, %v, want 9", got, err)
	}
}

func TestAmountInErrors(t *testing.T) {
	one, ten := big.NewInt(1), big.NewInt(10)
	for _, tc := range []struct {
		name           string
		out, rIn, rOut *big.Int
		fee            int
		want           error
	}{
		{"zero out", big.NewInt(0), ten, ten, 30, ErrInsufficientOutput},
		{"negative out", big.NewInt(-3), ten, ten, 30, ErrInsufficientOutput},
		{"nil out", nil, ten, ten, 30, ErrInsufficientOutput},
		{"out = reserve", ten, ten, ten, 30, ErrInsufficientLiquidity},
		{"out > reserve", big.NewInt(11), ten, ten, 30, ErrInsufficientLiquidity},
		{"zero reserve in", one, big.NewInt(0), ten, 30, ErrInsufficientLiquidity},
		{"nil reserve out", one, ten, nil, 30, ErrInsufficientLiquidity},
		{"fee -1", one, ten, ten, -1, ErrInvalidFee},
		{"fee 10000", one, ten, ten, 10000, ErrInvalidFee},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := AmountIn(tc.out, tc.rIn, tc.rOut, tc.fee)
			if !errors.Is(err, tc.want) || got != nil {
				t.Errorf("AmountIn = %v, %v, want %v", got, err, tc.want)
			}
		})
	}
	// reserveOut-1 out of a 10/10 pool: 10*9*10000/(1*9970) + 1 = 91.
	if got, err := AmountIn(big.NewInt(9), ten, ten, 30); err != nil || got.String() != "91" {
		t.Errorf("AmountIn(9, 10, 10) = %v, %v, want 91", got, err)
	}
	// An exact division still adds 1: 1 out of 1/2 with no fee is 1*1/1 + 1 = 2,
	// though an input of 1 already gives 1 (see TestAmountOutErrors).
	if got, err := AmountIn(one, one, big.NewInt(2), 0); err != nil || got.String() != "2" {
		t.Errorf("AmountIn(1, 1, 2, 0) = %v, %v, want 2", got, err)
	}
}

func TestAmountDoesNotModifyArguments(t *testing.T) {
	in, rIn, rOut := big.NewInt(12345), big.NewInt(1e9), big.NewInt(2e9)
	if _, err := AmountOut(in, rIn, rOut, 30); err != nil {
		t.Fatal(err)
	}
	if _, err := AmountIn(in, rIn, rOut, 30); err != nil {
		t.Fatal(err)
	}
	amounts, err := RouteAmountOut(in, []Hop{{rIn, rOut, 30}})
	if err != nil {
		t.Fatal(err)
	}
	amounts[0].SetInt64(0) // the route's amounts are its own
	_ = chain.MinOut(in, 50)
	_ = PriceImpact(in, big.NewInt(1), []Hop{{rIn, rOut, 30}})
	if in.Int64() != 12345 || rIn.Int64() != 1e9 || rOut.Int64() != 2e9 {
		t.Errorf("arguments changed: %s %s %s", in, rIn, rOut)
	}
}

func TestRouteAmountOutV2(t *testing.T) {
	e18 := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	// Through a Uniswap pool, then a PancakeSwap one.
	hops := []Hop{
		{ReserveIn: e18(100), ReserveOut: e18(200), FeeBps: UniswapV2FeeBps},
		{ReserveIn: e18(500), ReserveOut: e18(50), FeeBps: PancakeSwapV2FeeBps},
	}
	amounts, err := RouteAmountOut(e18(1), hops)
	if err != nil {
		t.Fatal(err)
	}
	mid := uniswapAmountOut(e18(1), e18(100), e18(200))
	last := pancakeAmountOut(mid, e18(500), e18(50))
	if len(amounts) != 3 || amounts[0].Cmp(e18(1)) != 0 || amounts[1].Cmp(mid) != 0 || amounts[2].Cmp(last) != 0 {
		t.Errorf("amounts = %v, want [1e18 %s %s]", amounts, mid, last)
	}

	if _, err := RouteAmountOut(e18(1), nil); !errors.Is(err, ErrEmptyRoute) {
		t.Errorf("no hops: err = %v", err)
	}
	if _, err := RouteAmountOut(big.NewInt(0), hops); !errors.Is(err, ErrInsufficientInput) {
		t.Errorf("zero in: err = %v", err)
	}
	// The second hop gives nothing: the error names it.
	hops[1].ReserveOut = big.NewInt(1)
	_, err = RouteAmountOut(e18(1), hops)
	if !errors.Is(err, ErrInsufficientInput) || !strings.HasPrefix(err.Error(), "hop 1: ") {
		t.Errorf("second hop dry: err = %v", err)
	}
	hops[0].FeeBps = 10000
	if _, err := RouteAmountOut(e18(1), hops); !errors.Is(err, ErrInvalidFee) || !strings.HasPrefix(err.Error(), "hop 0: ") {
		t.Errorf("bad fee: err = %v", err)
	}
}

func TestPriceImpactV2(t *testing.T) {
	m := big.NewInt(1e6)
	// 1000 into a 1e6/1e6 pool gives 996 at a mid price of 1: (1000-996)/1000.
	hop := []Hop{{ReserveIn: m, ReserveOut: m, FeeBps: 30}}
	out, _ := AmountOut(big.NewInt(1000), m, m, 30)
	if out.Int64() != 996 {
		t.Fatalf("out = %s", out)
	}
	if got := PriceImpact(big.NewInt(1000), out, hop); got == nil || got.Cmp(big.NewRat(1, 250)) != 0 {
		t.Errorf("impact = %v, want 1/250", got)
	}
	// Two hops: the mid price is the product, 2 * 1/4 = 1/2; 100 in quotes
	// 50, so 40 out is an impact of 10/50.
	two := []Hop{{big.NewInt(10), big.NewInt(20), 30}, {big.NewInt(40), big.NewInt(10), 30}}
	if got := PriceImpact(big.NewInt(100), big.NewInt(40), two); got == nil || got.Cmp(big.NewRat(1, 5)) != 0 {
		t.Errorf("two-hop impact = %v, want 1/5", got)
	}
	// More out than the mid price gives: negative.
	if got := PriceImpact(big.NewInt(100), big.NewInt(60), two); got == nil || got.Cmp(big.NewRat(-1, 5)) != 0 {
		t.Errorf("negative impact = %v, want -1/5", got)
	}
	for name, got := range map[string]*big.Rat{
		"no hops":      PriceImpact(big.NewInt(1), big.NewInt(1), nil),
		"zero in":      PriceImpact(big.NewInt(0), big.NewInt(1), hop),
		"nil out":      PriceImpact(big.NewInt(1), nil, hop),
		"zero reserve": PriceImpact(big.NewInt(1), big.NewInt(1), []Hop{{big.NewInt(0), m, 30}}),
	} {
		if got != nil {
			t.Errorf("%s: impact = %v, want nil", name, got)
		}
	}
}

func TestFormatPercentV2(t *testing.T) {
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("bad rat %q", s)
		}
		return r
	}
	for _, tc := range []struct {
		r        string
		decimals int
		want     string
	}{
		{"0.0123456", 4, "1.2346"},
		{"-0.0123456", 4, "-1.2346"},
		{"0.0123456", 2, "1.23"},
		{"0.0123456", 0, "1"},
		{"0.0123456", -3, "1"},
		{"0.5", 2, "50"},
		{"0.013", 4, "1.3"},
		{"1/3", 2, "33.33"},
		{"2/3", 2, "66.67"},
		{"-2/3", 2, "-66.67"},
		{"0.00125", 2, "0.13"},   // a tie rounds up
		{"-0.00125", 2, "-0.13"}, // and away from zero below it
		{"0.00124999", 2, "0.12"},
		{"0.005", 0, "1"},
		{"0.00001", 2, "0"},
		{"-0.00001", 2, "0"}, // not "-0"
		{"0", 4, "0"},
		{"0.0000001", 7, "0.00001"},
		{"0.00999999", 4, "1"},
		{"12.5", 1, "1250"},
	} {
		if got := chain.FormatPercent(rat(tc.r), tc.decimals); got != tc.want {
			t.Errorf("chain.FormatPercent(%s, %d) = %q, want %q", tc.r, tc.decimals, got, tc.want)
		}
	}
	if got := chain.FormatPercent(nil, 2); got != "" {
		t.Errorf("chain.FormatPercent(nil) = %q", got)
	}
}

func TestMinOutV2(t *testing.T) {
	for _, tc := range []struct {
		out  *big.Int
		bps  int
		want string
	}{
		{big.NewInt(1000), 50, "995"},
		{big.NewInt(999), 1, "998"}, // 998.9001 rounds down
		{big.NewInt(1000), 0, "1000"},
		{big.NewInt(1000), -5, "1000"}, // a negative tolerance counts as 0
		{big.NewInt(1000), 9999, "0"},  // 0.1 rounds down
		{big.NewInt(1000), 10000, "0"},
		{big.NewInt(1000), 20000, "0"}, // the SDK clamps at 0
		{big.NewInt(1), 1, "0"},
		{big.NewInt(0), 50, "0"},
		{big.NewInt(-7), 50, "0"},
		{nil, 50, "0"},
	} {
		if got := chain.MinOut(tc.out, tc.bps); got.String() != tc.want {
			t.Errorf("chain.MinOut(%v, %d) = %s, want %s", tc.out, tc.bps, got, tc.want)
		}
	}
}

// FuzzAmountOut feeds AmountOut arbitrary amounts, reserves (up to 256 bits)
// and fees (valid or not). It asserts that AmountOut and AmountIn never
// panic and, whenever out = AmountOut(x, rIn, rOut, fee) succeeds:
//   - 0 < out < rOut;
//   - the pair's K check holds with the fee taken from the input:
//     (rIn*10000 + x*(10000-fee)) * (rOut-out) >= rIn*rOut*10000;
//   - AmountOut(x+1) >= out (more in never gives less out);
//   - in := AmountIn(out) succeeds with in <= x+1, and in <= x unless
//     rIn*out*10000 is an exact multiple of (rOut-out)*(10000-fee) (then
//     getAmountIn's +1 overshoots the least sufficient input by one);
//   - AmountOut(in) >= out: the quoted input always buys the output.
func FuzzAmountOut(f *testing.F) {
	f.Add([]byte{1}, []byte{10}, []byte{10}, uint16(30))
	f.Add([]byte{0x0d, 0xe0, 0xb6, 0xb3, 0xa7, 0x64, 0x00, 0x00}, []byte{0x05, 0x6b, 0xc7, 0x5e, 0x2d, 0x63, 0x10, 0x00, 0x00}, []byte{0x0a, 0xd7, 0x8e, 0xbc, 0x5a, 0xc6, 0x20, 0x00, 0x00}, uint16(25))
	f.Add([]byte{0xff, 0xff}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte{1}, uint16(0))
	f.Add([]byte{}, []byte{}, []byte{}, uint16(10000))
	f.Fuzz(func(t *testing.T, xb, rInb, rOutb []byte, feeRaw uint16) {
		clip := func(b []byte) *big.Int {
			if len(b) > 32 {
				b = b[:32]
			}
			return new(big.Int).SetBytes(b)
		}
		x, rIn, rOut := clip(xb), clip(rInb), clip(rOutb)
		fee := int(feeRaw) % 10100 // mostly valid, some over 9999
		out, err := AmountOut(x, rIn, rOut, fee)
		_, _ = AmountIn(x, rIn, rOut, fee)
		if err != nil {
			if out != nil {
				t.Fatalf("error %v with a result %s", err, out)
			}
			return
		}
		if out.Sign() <= 0 || out.Cmp(rOut) >= 0 {
			t.Fatalf("AmountOut(%s, %s, %s, %d) = %s, not in (0, reserveOut)", x, rIn, rOut, fee, out)
		}
		g := big.NewInt(int64(FeeDenominator - fee))
		lhs := new(big.Int).Mul(rIn, bigFeeDenominator)
		lhs.Add(lhs, new(big.Int).Mul(x, g))
		lhs.Mul(lhs, new(big.Int).Sub(rOut, out))
		rhs := new(big.Int).Mul(rIn, rOut)
		rhs.Mul(rhs, bigFeeDenominator)
		if lhs.Cmp(rhs) < 0 {
			t.Fatalf("K decreased: x=%s rIn=%s rOut=%s fee=%d out=%s", x, rIn, rOut, fee, out)
		}
		more, err := AmountOut(new(big.Int).Add(x, big.NewInt(1)), rIn, rOut, fee)
		if err != nil || more.Cmp(out) < 0 {
			t.Fatalf("AmountOut(x+1) = %v, %v < AmountOut(x) = %s", more, err, out)
		}
		in, err := AmountIn(out, rIn, rOut, fee)
		if err != nil {
			t.Fatalf("AmountIn(%s, %s, %s, %d): %v", out, rIn, rOut, fee, err)
		}
		num := new(big.Int).Mul(rIn, out)
		num.Mul(num, bigFeeDenominator)
		den := new(big.Int).Mul(new(big.Int).Sub(rOut, out), g)
		exact := new(big.Int).Rem(num, den).Sign() == 0
		limit := x
		if exact {
			limit = new(big.Int).Add(x, big.NewInt(1))
		}
		if in.Cmp(limit) > 0 {
			t.Fatalf("AmountIn(AmountOut(%s)) = %s > %s (exact division %v; rIn=%s rOut=%s fee=%d)", x, in, limit, exact, rIn, rOut, fee)
		}
		back, err := AmountOut(in, rIn, rOut, fee)
		if err != nil || back.Cmp(out) < 0 {
			t.Fatalf("AmountOut(AmountIn(%s)) = %v, %v < %s", out, back, err, out)
		}
	})
}
