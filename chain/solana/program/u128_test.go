package program

import (
	"bufio"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestU128 compiles src/u128.h natively with clang (with testdata/u128_driver.c) and checks every
// operation against math/big over random operands of every size class, including the edges:
// checked add, sub and mul report overflow exactly when the true result leaves 128 bits, division
// gives quotient and remainder, the integer square root is the floor.
func TestU128(t *testing.T) {
	clang := needClang(t)
	bin := filepath.Join(t.TempDir(), "u128")
	if out, err := exec.Command(clang, "-O2", "-Wall", "-Werror", "-o", bin, filepath.Join("testdata", "u128_driver.c")).CombinedOutput(); err != nil {
		t.Fatalf("compile u128_driver.c: %v\n%s", err, out)
	}
	r := rand.New(rand.NewPCG(20, 2))
	max128 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	operand := func() *big.Int {
		switch r.IntN(6) {
		case 0: // small
			return big.NewInt(int64(r.IntN(1000)))
		case 1: // near 2^64
			v := new(big.Int).Lsh(big.NewInt(1), 64)
			return v.Add(v, big.NewInt(int64(r.IntN(5))-2))
		case 2: // near 2^128
			return new(big.Int).Sub(max128, big.NewInt(int64(r.IntN(3))))
		default: // random width
			bits := 1 + r.IntN(128)
			v := new(big.Int)
			for i := 0; i < bits; i += 32 {
				v.Lsh(v, 32).Or(v, big.NewInt(int64(r.Uint32())))
			}
			return v.And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits)), big.NewInt(1)))
		}
	}
	limbs := func(v *big.Int) string {
		lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0)))
		return fmt.Sprintf("%x %x", new(big.Int).Rsh(v, 64), lo)
	}
	type c struct {
		op   string
		a, b *big.Int
	}
	var cases []c
	for _, op := range []string{"add", "sub", "mul", "mul64", "div", "sqrt", "cmp"} {
		for i := 0; i < 3000; i++ {
			a, b := operand(), operand()
			if op == "mul64" {
				a.And(a, new(big.Int).SetUint64(^uint64(0)))
				b.And(b, new(big.Int).SetUint64(^uint64(0)))
			}
			cases = append(cases, c{op, a, b})
		}
	}
	cases = append(cases, c{"div", big.NewInt(5), big.NewInt(0)}, c{"sqrt", max128, big.NewInt(0)}, c{"sqrt", big.NewInt(0), big.NewInt(0)})
	var in strings.Builder
	for _, k := range cases {
		fmt.Fprintf(&in, "%s %s %s\n", k.op, limbs(k.a), limbs(k.b))
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	fits := func(v *big.Int) bool { return v.Sign() >= 0 && v.Cmp(max128) <= 0 }
	for i, k := range cases {
		if !sc.Scan() {
			t.Fatalf("%d results for %d cases", i, len(cases))
		}
		var want string
		switch k.op {
		case "add", "sub", "mul", "mul64":
			v := new(big.Int)
			switch k.op {
			case "add":
				v.Add(k.a, k.b)
			case "sub":
				v.Sub(k.a, k.b)
			default:
				v.Mul(k.a, k.b)
			}
			want = "none"
			if fits(v) {
				want = "ok " + limbs(v)
			}
		case "div":
			want = "none"
			if k.b.Sign() != 0 {
				q, m := new(big.Int).QuoRem(k.a, k.b, new(big.Int))
				want = "ok " + limbs(q) + " " + limbs(m)
			}
		case "sqrt":
			want = "ok " + limbs(new(big.Int).Sqrt(k.a))
		case "cmp":
			want = fmt.Sprintf("ok 0 %x", uint64(int64(k.a.Cmp(k.b))))
		}
		if got := sc.Text(); got != want {
			t.Fatalf("%s(%v, %v) = %s, want %s", k.op, k.a, k.b, got, want)
		}
	}
}

// needClang returns clang's path, or skips the test (fails under PARTNER_TEST_REQUIRE_ALL=1).
func needClang(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("clang")
	if err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatal("clang is required (PARTNER_TEST_REQUIRE_ALL=1) but not on PATH: apt-get install clang")
		}
		t.Skip("skipping: clang is not on PATH (apt-get install clang)")
	}
	return p
}
