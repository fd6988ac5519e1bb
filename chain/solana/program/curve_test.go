package program

import (
	"bufio"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// refCurve is CPMM's CurveCalculator in math/big, written from its rules: "none" where it returns
// None, "panic" where the program unwraps a None, else the result fields.
type refCurve struct{ trade, creator, protocol, fund uint64 }

var u128Max = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

type noneErr struct{}
type panicErr struct{}

func chk(v *big.Int, fail any) *big.Int {
	if v.Sign() < 0 || v.Cmp(u128Max) > 0 {
		panic(fail)
	}
	return v
}

func ceilDivChecked(a *big.Int, num, den uint64, fail any) *big.Int {
	if den == 0 {
		panic(fail)
	}
	t := chk(new(big.Int).Mul(a, bi(num)), fail)
	t = chk(t.Add(t, bi(den)), fail)
	return t.Sub(t, big.NewInt(1)).Quo(t, bi(den))
}

func floorDivChecked(a *big.Int, num, den uint64, fail any) *big.Int {
	if den == 0 {
		panic(fail)
	}
	t := chk(new(big.Int).Mul(a, bi(num)), fail)
	return t.Quo(t, bi(den))
}

func preFee(post *big.Int, rate uint64, fail any) *big.Int {
	if rate == 0 {
		return new(big.Int).Set(post)
	}
	if rate > million {
		panic(fail)
	}
	return ceilDivChecked(post, million, million-rate, fail)
}

func (c refCurve) run(op string, amount, x, y uint64, onInput bool) (out string) {
	defer func() {
		switch recover().(type) {
		case noneErr:
			out = "none"
		case panicErr:
			out = "panic"
		case nil:
		default:
			panic("unexpected")
		}
	}()
	none, pan := noneErr{}, panicErr{}
	X, Y := bi(x), bi(y)
	var input, output, trade, creator, newX, newY *big.Int
	creator = big.NewInt(0)
	if op == "in" {
		in := bi(amount)
		var less *big.Int
		if onInput {
			total := ceilDivChecked(in, c.trade+c.creator, million, none)
			creator = floorDivChecked(total, c.creator, c.trade+c.creator, none)
			trade = new(big.Int).Sub(total, creator)
			less = chk(new(big.Int).Sub(in, total), none)
		} else {
			trade = ceilDivChecked(in, c.trade, million, none)
			less = chk(new(big.Int).Sub(in, trade), none)
		}
		den := chk(new(big.Int).Add(X, less), pan)
		if den.Sign() == 0 {
			panic(pan)
		}
		swapped := new(big.Int).Quo(chk(new(big.Int).Mul(less, Y), pan), den)
		output = swapped
		if !onInput {
			creator = ceilDivChecked(swapped, c.creator, million, none)
			output = chk(new(big.Int).Sub(swapped, creator), none)
		}
		input, newX, newY = in, chk(new(big.Int).Add(X, less), none), chk(new(big.Int).Sub(Y, swapped), none)
	} else {
		out := bi(amount)
		actual := out
		if !onInput {
			actual = preFee(out, c.creator, none)
			creator = new(big.Int).Sub(actual, out)
		}
		den := chk(new(big.Int).Sub(Y, actual), pan)
		if den.Sign() == 0 {
			panic(pan)
		}
		swapped := ceilDiv(chk(new(big.Int).Mul(X, actual), pan), den)
		if onInput {
			with := preFee(swapped, c.trade+c.creator, pan)
			total := new(big.Int).Sub(with, swapped)
			creator = floorDivChecked(total, c.creator, c.trade+c.creator, none)
			trade = new(big.Int).Sub(total, creator)
			input = with
		} else {
			input = preFee(swapped, c.trade, pan)
			trade = new(big.Int).Sub(input, swapped)
		}
		output, newX, newY = out, chk(new(big.Int).Add(X, swapped), none), chk(new(big.Int).Sub(Y, actual), none)
	}
	protocol := floorDivChecked(trade, c.protocol, million, none)
	fund := floorDivChecked(trade, c.fund, million, none)
	var b strings.Builder
	b.WriteString("ok")
	for _, v := range []*big.Int{input, output, trade, protocol, fund, creator, newX, newY} {
		hi := new(big.Int).Rsh(v, 64)
		lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0)))
		fmt.Fprintf(&b, " %x:%x", hi, lo)
	}
	return b.String()
}

// TestCurve compiles src/curve.h natively and holds both swaps to CPMM's calculator in math/big on
// 20,000 random cases: every rate combination (creator fee on the input or the output, zero rates
// included), amounts and vaults from 1 to u64::MAX, and the failure classes (None, unwrap).
func TestCurve(t *testing.T) {
	clang := needClang(t)
	bin := filepath.Join(t.TempDir(), "curve")
	if out, err := exec.Command(clang, "-O2", "-Wall", "-Werror", "-Wno-unused-function", "-o", bin, filepath.Join("testdata", "curve_driver.c")).CombinedOutput(); err != nil {
		t.Fatalf("compile curve_driver.c: %v\n%s", err, out)
	}
	r := rand.New(rand.NewPCG(3, 17))
	amount := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return uint64(r.IntN(1000)) + 1
		case 1:
			return ^uint64(0) - uint64(r.IntN(3))
		default:
			return r.Uint64() >> r.IntN(64)
		}
	}
	rate := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		default:
			return uint64(r.IntN(100_000))
		}
	}
	type tc struct {
		op           string
		amount, x, y uint64
		c            refCurve
		onInput      bool
	}
	var cases []tc
	for i := 0; i < 20000; i++ {
		op := "in"
		if i%2 == 1 {
			op = "out"
		}
		k := tc{op: op, amount: amount(), x: amount(), y: amount(), c: refCurve{rate(), rate(), uint64(r.IntN(million / 2)), uint64(r.IntN(million / 2))}, onInput: r.IntN(2) == 0}
		if op == "out" && r.IntN(2) == 0 {
			k.amount = k.y / uint64(2+r.IntN(1000)) // mostly feasible outputs
		}
		cases = append(cases, k)
	}
	var in strings.Builder
	for _, k := range cases {
		on := 0
		if k.onInput {
			on = 1
		}
		fmt.Fprintf(&in, "%s %d %d %d %d %d %d %d %d\n", k.op, k.amount, k.x, k.y, k.c.trade, k.c.creator, k.c.protocol, k.c.fund, on)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	counts := map[string]int{}
	for _, k := range cases {
		if !sc.Scan() {
			t.Fatal("too few results")
		}
		want := k.c.run(k.op, k.amount, k.x, k.y, k.onInput)
		if got := sc.Text(); got != want {
			t.Fatalf("%s %+v: got %s, want %s", k.op, k, got, want)
		}
		counts[k.op+" "+strings.Fields(want)[0]]++
	}
	t.Logf("outcomes: %v", counts)
}
