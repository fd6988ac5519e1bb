package raydium

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// Anchor's 8-byte discriminators: sha256("account:<Name>")[..8] leads each account of the
// program, sha256("global:<name>")[..8] each instruction's data.

func discriminator(preimage string) [8]byte {
	h := sha256.Sum256([]byte(preimage))
	return [8]byte(h[:8])
}

// Account discriminators.
var (
	AmmConfigDiscriminator        = discriminator("account:AmmConfig")
	PoolStateDiscriminator        = discriminator("account:PoolState")
	ObservationStateDiscriminator = discriminator("account:ObservationState")
)

// Instruction discriminators.
var (
	ixInitialize     = discriminator("global:initialize")
	ixDeposit        = discriminator("global:deposit")
	ixWithdraw       = discriminator("global:withdraw")
	ixSwapBaseInput  = discriminator("global:swap_base_input")
	ixSwapBaseOutput = discriminator("global:swap_base_output")
)

// reader reads a little-endian layout; the caller checks the length first.
type reader struct {
	b   []byte
	off int
}

func (r *reader) u8() uint8 {
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u16() uint16 {
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u64() uint64 {
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v
}

func (r *reader) u128() U128 {
	lo := r.u64()
	return U128{Hi: r.u64(), Lo: lo}
}

func (r *reader) key() Pubkey {
	var k Pubkey
	copy(k[:], r.b[r.off:])
	r.off += 32
	return k
}

func (r *reader) skip(n int) { r.off += n }

// account checks an account's discriminator and length: Anchor's checks before it decodes (a
// longer account decodes as its first size bytes).
func account(name string, data []byte, disc [8]byte, size int) (*reader, error) {
	if len(data) < 8 || [8]byte(data[:8]) != disc {
		return nil, fmt.Errorf("%w: not a %s (discriminator)", ErrLayout, name)
	}
	if len(data) < size {
		return nil, fmt.Errorf("%w: %s of %d bytes, want %d", ErrLayout, name, len(data), size)
	}
	return &reader{b: data, off: 8}, nil
}
