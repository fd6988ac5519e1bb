package link

import (
	"encoding/binary"
	"math/bits"
)

// Murmur3 is MurmurHash3's 32-bit hash of b with seed 0: the key under which the SBPF loader
// registers a syscall (the hash of its name, such as "sol_log_" = 0x207559bd) and under which a
// v0 program's call instructions name it once relocated.
func Murmur3(b []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(b) / 4 * 4
	for i := 0; i < n; i += 4 {
		k := binary.LittleEndian.Uint32(b[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch len(b) & 3 {
	case 3:
		k ^= uint32(b[n+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(b[n+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(b[n])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(len(b))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
