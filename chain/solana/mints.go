package solana

import (
	"context"
	"encoding/base64"
	"math/big"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
)

// rpcAccount is an account as getMultipleAccounts, getAccountInfo, getProgramAccounts and
// getTokenAccountsByOwner return it with base64 encoding.
type rpcAccount struct {
	Lamports   uint64    `json:"lamports"`
	Owner      string    `json:"owner"`
	Data       [2]string `json:"data"` // [base64, "base64"]
	Executable bool      `json:"executable"`
	Space      uint64    `json:"space"`
}

// bytes decodes the account's data.
func (a *rpcAccount) bytes() ([]byte, error) {
	if a.Data[1] != "base64" {
		return nil, layoutErr("account data encoded as %q, asked for base64", a.Data[1])
	}
	return base64.StdEncoding.DecodeString(a.Data[0])
}

// ownerKey parses the account's owner program.
func (a *rpcAccount) ownerKey() (sol.PublicKey, error) {
	return sol.PublicKeyFromBase58(a.Owner)
}

type rpcContext struct {
	Slot uint64 `json:"slot"`
}

type multipleAccounts struct {
	Context rpcContext    `json:"context"`
	Value   []*rpcAccount `json:"value"`
}

type epochInfo struct {
	Epoch        uint64 `json:"epoch"`
	AbsoluteSlot uint64 `json:"absoluteSlot"`
	BlockHeight  uint64 `json:"blockHeight"`
}

// maxAccountsPerCall is the most keys one getMultipleAccounts takes (Solana's RPC limit).
const maxAccountsPerCall = 100

// accountsRead is a getMultipleAccounts of any number of keys, split into calls of at most
// maxAccountsPerCall that go into one batch.
type accountsRead struct {
	keys  []sol.PublicKey
	calls []*call
	outs  []*multipleAccounts
}

// accounts prepares the calls that read keys (base64; with slice, only that part of the data).
func (c *Client) accounts(keys []sol.PublicKey, slice *[2]int) *accountsRead {
	ar := &accountsRead{keys: keys}
	for i := 0; i < len(keys); i += maxAccountsPerCall {
		part := keys[i:min(i+maxAccountsPerCall, len(keys))]
		strs := make([]string, len(part))
		for j, k := range part {
			strs[j] = k.String()
		}
		cfg := c.config("encoding", "base64")
		if slice != nil {
			cfg["dataSlice"] = map[string]int{"offset": slice[0], "length": slice[1]}
		}
		out := new(multipleAccounts)
		ar.outs = append(ar.outs, out)
		ar.calls = append(ar.calls, newCall("getMultipleAccounts", out, strs, cfg))
	}
	return ar
}

// result returns the accounts by key (nil: no such account) and the lowest context slot.
func (ar *accountsRead) result(op string) (map[sol.PublicKey]*rpcAccount, uint64, error) {
	if err := firstErr(ar.calls...); err != nil {
		return nil, 0, err
	}
	out := make(map[sol.PublicKey]*rpcAccount, len(ar.keys))
	var slot uint64
	for i, o := range ar.outs {
		start := i * maxAccountsPerCall
		part := ar.keys[start:min(start+maxAccountsPerCall, len(ar.keys))]
		if len(o.Value) != len(part) {
			return nil, 0, badResponse(op, "getMultipleAccounts answered %d accounts for %d keys", len(o.Value), len(part))
		}
		for j, k := range part {
			out[k] = o.Value[j]
		}
		if slot == 0 || o.Context.Slot < slot {
			slot = o.Context.Slot
		}
	}
	return out, slot, nil
}

// mintRead is the part of a batch that reads mints: their accounts, their Metaplex metadata
// accounts and the epoch.
type mintRead struct {
	mints    []sol.PublicKey
	accounts *accountsRead
	epoch    *call
	epochOut *epochInfo
}

func (c *Client) readMints(mints []sol.PublicKey) *mintRead {
	keys := make([]sol.PublicKey, 0, 2*len(mints))
	keys = append(keys, mints...)
	for _, m := range mints {
		keys = append(keys, metadataPDA(m))
	}
	mr := &mintRead{mints: mints, accounts: c.accounts(keys, nil), epochOut: new(epochInfo)}
	mr.epoch = newCall("getEpochInfo", mr.epochOut, c.config())
	return mr
}

func (mr *mintRead) calls() []*call { return append(append([]*call{}, mr.accounts.calls...), mr.epoch) }

// result parses the mints, in order. A mint whose account is missing or is not a mint has Found
// false; a Metaplex account that does not parse is ignored.
func (mr *mintRead) result(op string) ([]chain.SVMMint, error) {
	if mr.epoch.err != nil {
		return nil, mr.epoch.err
	}
	accs, slot, err := mr.accounts.result(op)
	if err != nil {
		return nil, err
	}
	out := make([]chain.SVMMint, len(mr.mints))
	for i, k := range mr.mints {
		out[i] = mintFrom(k, accs[k], accs[metadataPDA(k)], mr.epochOut.Epoch, slot)
	}
	return out, nil
}

// mintFrom builds a chain.SVMMint from its account and its Metaplex metadata account (either may be nil).
func mintFrom(k sol.PublicKey, acc, meta *rpcAccount, epoch, slot uint64) chain.SVMMint {
	m := chain.SVMMint{Address: k.String(), Epoch: epoch, Slot: slot}
	if acc == nil {
		return m
	}
	program, err := acc.ownerKey()
	if err != nil || !isTokenProgram(program) {
		return m
	}
	data, err := acc.bytes()
	if err != nil {
		return m
	}
	st, err := parseMint(program, data)
	if err != nil {
		return m
	}
	m.Found, m.Program, m.Decimals = true, program.String(), st.decimals
	m.Supply = new(big.Int).SetUint64(st.supply)
	m.MintAuthority, m.FreezeAuthority, m.Extensions = st.mintAuthority, st.freezeAuthority, st.ext
	if tf := st.ext.TransferFee; tf != nil {
		fee := tf.At(epoch)
		m.TransferFee = &fee
	}
	if tm := st.ext.TokenMetadata; tm != nil && (st.ext.MetadataPointer == nil || st.ext.MetadataPointer.Address == m.Address) {
		m.Metadata = &chain.SVMMintMetadata{Name: tm.Name, Symbol: tm.Symbol, URI: tm.URI, Source: "token-2022",
			UpdateAuthority: tm.UpdateAuthority, Mutable: tm.UpdateAuthority != ""}
	}
	if m.Metadata == nil && meta != nil && meta.Owner == MetadataProgram {
		if data, err := meta.bytes(); err == nil {
			if md, err := parseMetaplex(k, data); err == nil {
				m.Metadata = &md
			}
		}
	}
	return m
}

// Mints reads mints (SPL Token or Token-2022): decimals, supply, authorities, Token-2022
// extensions with the transfer fee of the current epoch, and metadata (the Token-2022 metadata
// extension or the Metaplex metadata account). One round trip: a JSON-RPC batch of
// getMultipleAccounts (the mints and their Metaplex metadata accounts, 100 keys per call) and
// getEpochInfo. An address that is not a mint gives an entry with Found false, not an error.
// Errors: chain.ErrInvalidAddress for a malformed address, else *Error.
func (c *Client) Mints(ctx context.Context, mints []string) ([]chain.SVMMint, error) {
	const op = "mints"
	keys := make([]sol.PublicKey, len(mints))
	for i, s := range mints {
		k, err := pubkey("mint", s)
		if err != nil {
			return nil, err
		}
		keys[i] = k
	}
	if len(keys) == 0 {
		return nil, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	mr := c.readMints(keys)
	if err := c.batch(ctx, op, mr.calls()); err != nil {
		return nil, err
	}
	return mr.result(op)
}
