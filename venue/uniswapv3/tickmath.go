package uniswapv3

import (
	"errors"
	"fmt"
	"math/big"
)

// MinTick and MaxTick are TickMath's bounds: the ticks whose prices are 1.0001^±887272, the
// widest a uint160 Q64.96 sqrt price holds.
const (
	MinTick = -887272
	MaxTick = 887272
)

// MinSqrtRatio is SqrtRatioAtTick(MinTick) and MaxSqrtRatio is SqrtRatioAtTick(MaxTick):
// a pool's sqrt price lies in [MinSqrtRatio, MaxSqrtRatio). They are shared: do not modify.
var (
	MinSqrtRatio = big.NewInt(4295128739)
	MaxSqrtRatio = mustInt("1461446703485210103287273052203988822378723970342")
)

// ErrTick is a tick outside [MinTick, MaxTick] (the contract reverts with "T").
var ErrTick = errors.New("uniswapv3: tick out of range")

// ErrSqrtRatio is a sqrt price outside [MinSqrtRatio, MaxSqrtRatio) (the contract reverts with "R").
var ErrSqrtRatio = errors.New("uniswapv3: sqrt price out of range")

func mustInt(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 0)
	if !ok {
		panic("uniswapv3: bad constant " + s)
	}
	return v
}

// tickRatios are TickMath's Q128.128 factors 1/sqrt(1.0001)^(2^i), i = 1..19 (index 0 is bit 1).
var tickRatios = func() []*big.Int {
	hex := []string{
		"0xfff97272373d413259a46990580e213a", "0xfff2e50f5f656932ef12357cf3c7fdcc", "0xffe5caca7e10e4e61c3624eaa0941cd0",
		"0xffcb9843d60f6159c9db58835c926644", "0xff973b41fa98c081472e6896dfb254c0", "0xff2ea16466c96a3843ec78b326b52861",
		"0xfe5dee046a99a2a811c461f1969c3053", "0xfcbe86c7900a88aedcffc83b479aa3a4", "0xf987a7253ac413176f2b074cf7815e54",
		"0xf3392b0822b70005940c7a398e4b70f3", "0xe7159475a2c29b7443b29c7fa6e889d9", "0xd097f3bdfd2022b8845ad8f792aa5825",
		"0xa9f746462d870fdf8a65dc1f90e061e5", "0x70d869a156d2a1b890bb3df62baf32f7", "0x31be135f97d08fd981231505542fcfa6",
		"0x9aa508b5b7a84e1c677de54f3e99bc9", "0x5d6af8dedb81196699c329225ee604", "0x2216e584f5fa1ea926041bedfe98",
		"0x48a170391f7dc42444e8fa2",
	}
	out := make([]*big.Int, len(hex))
	for i, h := range hex {
		out[i] = mustInt(h)
	}
	return out
}()

var (
	ratioBit0 = mustInt("0xfffcb933bd6fad37aa2d162d1a594001")
	ratioOne  = new(big.Int).Lsh(one, 128)
)

// SqrtRatioAtTick is TickMath.getSqrtRatioAtTick: sqrt(1.0001^tick) as a Q64.96 number, rounded
// up, for tick in [MinTick, MaxTick] (ErrTick otherwise).
func SqrtRatioAtTick(tick int) (*big.Int, error) {
	if tick < MinTick || tick > MaxTick {
		return nil, fmt.Errorf("%w: %d", ErrTick, tick)
	}
	abs := tick
	if abs < 0 {
		abs = -abs
	}
	ratio := new(big.Int)
	if abs&1 != 0 {
		ratio.Set(ratioBit0)
	} else {
		ratio.Set(ratioOne)
	}
	for i, f := range tickRatios {
		if abs&(2<<i) != 0 {
			ratio.Mul(ratio, f).Rsh(ratio, 128)
		}
	}
	if tick > 0 {
		ratio.Quo(maxUint256, ratio)
	}
	// From Q128.128 to Q128.96, rounding up.
	rem := new(big.Int).And(ratio, big.NewInt(0xffffffff))
	ratio.Rsh(ratio, 32)
	if rem.Sign() != 0 {
		ratio.Add(ratio, one)
	}
	return ratio, nil
}

var (
	log2Sqrt10001 = mustInt("255738958999603826347141")
	tickLowOffset = mustInt("3402992956809132418596140100660247210")
	tickHiOffset  = mustInt("291339464771989622907027621153398088495")
)

// TickAtSqrtRatio is TickMath.getTickAtSqrtRatio: the greatest tick whose sqrt ratio is at most
// sqrtPriceX96, for sqrtPriceX96 in [MinSqrtRatio, MaxSqrtRatio) (ErrSqrtRatio otherwise). It
// computes the contract's fixed-point log, so it agrees with the contract bit for bit.
func TickAtSqrtRatio(sqrtPriceX96 *big.Int) (int, error) {
	if sqrtPriceX96.Cmp(MinSqrtRatio) < 0 || sqrtPriceX96.Cmp(MaxSqrtRatio) >= 0 {
		return 0, fmt.Errorf("%w: %s", ErrSqrtRatio, sqrtPriceX96)
	}
	ratio := new(big.Int).Lsh(sqrtPriceX96, 32)
	msb := ratio.BitLen() - 1
	r := new(big.Int)
	if msb >= 128 {
		r.Rsh(ratio, uint(msb-127))
	} else {
		r.Lsh(ratio, uint(127-msb))
	}
	log2 := new(big.Int).Lsh(big.NewInt(int64(msb-128)), 64)
	for i := 63; i >= 50; i-- {
		r.Mul(r, r).Rsh(r, 127)
		f := r.Bit(128)
		if f == 1 {
			log2.SetBit(log2, i, 1) // bits below 64 of log2 are zero so far: OR is setting the bit
			r.Rsh(r, 1)
		}
	}
	logSqrt := log2.Mul(log2, log2Sqrt10001) // Q128.128
	lo := new(big.Int).Sub(logSqrt, tickLowOffset)
	lo.Rsh(lo, 128) // arithmetic shift, as the contract's on int256
	hi := new(big.Int).Add(logSqrt, tickHiOffset)
	hi.Rsh(hi, 128)
	tickLow, tickHi := int(lo.Int64()), int(hi.Int64())
	if tickLow == tickHi {
		return tickLow, nil
	}
	atHi, err := SqrtRatioAtTick(tickHi)
	if err != nil {
		return 0, err
	}
	if atHi.Cmp(sqrtPriceX96) <= 0 {
		return tickHi, nil
	}
	return tickLow, nil
}
