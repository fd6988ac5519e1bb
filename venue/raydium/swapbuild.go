package raydium

import (
	"encoding/binary"
	"errors"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// NativeMint is wrapped SOL's mint: a route that starts or ends in it is paid or paid out in SOL.
var NativeMint = Pubkey(svm.NativeMint)

// SwapBuild is what a wallet's transaction does to trade a route: its instructions and the token
// accounts it creates (each holds a rent-exempt deposit of SOL).
type SwapBuild struct {
	Instructions []Instruction
	Creates      []Pubkey
}

// ErrRouteState: a route's pool is missing from the state a build read.
var ErrRouteState = errors.New("raydium: a pool of the route is not in the state read")

// BuildSwap is the instructions that trade route r for user, as its quote computed it, receiving
// at least minOut of the output:
//
//   - the user's associated token account of every mint after the input is created if it does
//     not exist (create_idempotent: a no-op when it does);
//   - wrapped SOL in: the user's wrapped SOL account is funded with the route's input in lamports
//     (a System transfer and SyncNative); wrapped SOL out: it receives the output. When the build
//     creates that account it closes it at the end, so the user pays and receives SOL; an account
//     the user already has is left as it is, its balance untouched by an input and holding an
//     output as wrapped SOL (closing it would unwrap what it held before);
//   - one swap_base_input per hop: the first sends the route's input; a second hop sends exactly
//     what the first delivers, so the first must deliver its quoted amount at least; the last hop
//     must deliver minOut.
//
// pools are the route's pools' states (for their accounts), exists says which accounts exist.
func BuildSwap(r Route, pools map[Pubkey]PoolState, user Pubkey, minOut uint64, exists func(Pubkey) bool) (SwapBuild, error) {
	var b SwapBuild
	programOf := map[Pubkey]Pubkey{}
	for _, h := range r.Hops {
		p, ok := pools[h.Pool]
		if !ok {
			return SwapBuild{}, ErrRouteState
		}
		programOf[p.Token0Mint], programOf[p.Token1Mint] = p.Token0Program, p.Token1Program
	}
	account := func(mint Pubkey) Pubkey { return AssociatedTokenAccount(user, mint, programOf[mint]) }
	in := r.Hops[0].InputMint
	out := r.Hops[len(r.Hops)-1].OutputMint
	ensure := func(mint Pubkey) {
		a := account(mint)
		b.Instructions = append(b.Instructions, createIdempotent(user, a, mint, programOf[mint]))
		if !exists(a) {
			b.Creates = append(b.Creates, a)
		}
	}
	if in == NativeMint {
		ensure(in)
		b.Instructions = append(b.Instructions, transferSOL(user, account(in), r.AmountIn()), syncNative(account(in)))
	}
	for _, h := range r.Hops {
		ensure(h.OutputMint)
	}
	for i, h := range r.Hops {
		p := pools[h.Pool]
		amountIn, min := h.Quote.AmountIn, h.Quote.Received
		if i == len(r.Hops)-1 {
			min = minOut
		}
		accts := p.SwapAccounts(h.Pool, user, h.ZeroForOne, account(h.InputMint), account(h.OutputMint))
		b.Instructions = append(b.Instructions, SwapBaseInput(accts, amountIn, min))
	}
	if in == NativeMint || out == NativeMint {
		if a := account(NativeMint); !exists(a) {
			b.Instructions = append(b.Instructions, closeAccount(a, user))
		}
	}
	return b, nil
}

// Call is the instruction as the adapters take it.
func (ix Instruction) Call() chain.SVMCall {
	c := chain.SVMCall{Program: ix.ProgramID.String(), Data: ix.Data}
	for _, m := range ix.Accounts {
		c.Accounts = append(c.Accounts, chain.SVMMeta{Address: m.Pubkey.String(), Signer: m.IsSigner, Writable: m.IsWritable})
	}
	return c
}

// createIdempotent is the Associated Token Account program's CreateIdempotent: payer creates
// owner's associated account of mint (under tokenProgram) unless it exists.
func createIdempotent(owner, account, mint, tokenProgram Pubkey) Instruction {
	return Instruction{ProgramID: AssociatedTokenProgram, Data: []byte{1}, Accounts: []AccountMeta{
		{Pubkey: owner, IsSigner: true, IsWritable: true}, writable(account), readonly(owner), readonly(mint),
		readonly(SystemProgram), readonly(tokenProgram)}}
}

// transferSOL is the System program's Transfer of lamports.
func transferSOL(from, to Pubkey, lamports uint64) Instruction {
	data := binary.LittleEndian.AppendUint32(nil, 2)
	return Instruction{ProgramID: SystemProgram, Data: binary.LittleEndian.AppendUint64(data, lamports),
		Accounts: []AccountMeta{{Pubkey: from, IsSigner: true, IsWritable: true}, writable(to)}}
}

// syncNative is SPL Token's SyncNative: a wrapped SOL account's amount follows its lamports.
func syncNative(account Pubkey) Instruction {
	return Instruction{ProgramID: TokenProgram, Data: []byte{17}, Accounts: []AccountMeta{writable(account)}}
}

// closeAccount is SPL Token's CloseAccount of owner's account, its lamports to owner.
func closeAccount(account, owner Pubkey) Instruction {
	return Instruction{ProgramID: TokenProgram, Data: []byte{9}, Accounts: []AccountMeta{writable(account), writable(owner),
		signer(owner)}}
}
