package raydium

import "encoding/binary"

// AccountMeta is one account of an instruction, with the flags the transaction gives it.
type AccountMeta struct {
	Pubkey     Pubkey
	IsSigner   bool
	IsWritable bool
}

// Instruction is one instruction to the CPMM program, as a transaction carries it.
type Instruction struct {
	ProgramID Pubkey
	Accounts  []AccountMeta
	Data      []byte
}

func writable(k Pubkey) AccountMeta { return AccountMeta{Pubkey: k, IsWritable: true} }
func readonly(k Pubkey) AccountMeta { return AccountMeta{Pubkey: k} }
func signer(k Pubkey) AccountMeta   { return AccountMeta{Pubkey: k, IsSigner: true} }

// data is an instruction's data: its discriminator, then its u64 arguments (Borsh, little-endian).
func data(disc [8]byte, args ...uint64) []byte {
	b := append(make([]byte, 0, 8+8*len(args)), disc[:]...)
	for _, a := range args {
		b = binary.LittleEndian.AppendUint64(b, a)
	}
	return b
}
