package raydium

import (
	"math/big"
	"strconv"
)

// ObservationStateSize is an ObservationState account's size.
const ObservationStateSize = 4075

// ObservationCount is the number of observations in the ring.
const ObservationCount = 100

// U128 is an unsigned 128-bit integer, as the program stores it (little-endian limbs).
type U128 struct{ Hi, Lo uint64 }

// Big returns u as a big.Int.
func (u U128) Big() *big.Int {
	b := new(big.Int).Lsh(big64(u.Hi), 64)
	return b.Or(b, big64(u.Lo))
}

// String is u in decimal.
func (u U128) String() string {
	if u.Hi == 0 {
		return strconv.FormatUint(u.Lo, 10)
	}
	return u.Big().String()
}

// Observation is one entry of the price oracle: at BlockTimestamp, the running sums over time of
// each token's price in the other, in Q32.32 (token 1 per token 0, token 0 per token 1), wrapping
// at 2^128.
type Observation struct {
	BlockTimestamp           uint64
	CumulativeToken0PriceX32 U128
	CumulativeToken1PriceX32 U128
}

// ObservationState is a pool's price oracle (states/oracle.rs, a packed zero-copy account): a ring
// of observations, a new one at most every 15 seconds of swaps.
type ObservationState struct {
	Initialized         bool
	ObservationIndex    uint16 // the latest observation
	PoolID              Pubkey
	Observations        [ObservationCount]Observation
	LastUpdateTimestamp uint64
}

// DecodeObservationState decodes an ObservationState account's data. Errors wrap ErrLayout.
func DecodeObservationState(data []byte) (ObservationState, error) {
	r, err := account("ObservationState", data, ObservationStateDiscriminator, ObservationStateSize)
	if err != nil {
		return ObservationState{}, err
	}
	var o ObservationState
	o.Initialized = r.u8() != 0
	o.ObservationIndex = r.u16()
	o.PoolID = r.key()
	for i := range o.Observations {
		ob := &o.Observations[i]
		ob.BlockTimestamp = r.u64()
		ob.CumulativeToken0PriceX32 = r.u128()
		ob.CumulativeToken1PriceX32 = r.u128()
	}
	o.LastUpdateTimestamp = r.u64()
	return o, nil // then padding: [u64; 3]
}

// Latest is the latest observation (the zero observation when the index is out of the ring).
func (o *ObservationState) Latest() Observation {
	if int(o.ObservationIndex) >= ObservationCount {
		return Observation{}
	}
	return o.Observations[o.ObservationIndex]
}
