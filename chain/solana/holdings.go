package solana

import (
	"cmp"
	"context"
	"math/big"
	"slices"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
)

// TokenBalance is one token account of an owner.
type TokenBalance struct {
	Account string   // the token account
	Mint    string   // its mint
	Program string   // TokenProgram or Token2022Program
	Amount  *big.Int // base units
	// Decimals is the mint's; -1 when the mint could not be read (see HoldingsResult.Mints).
	Decimals int
	Frozen   bool
	// Native reports a wrapped SOL account (Amount is the wrapped lamports, without its rent
	// reserve).
	Native bool
}

// Holdings is one owner's balances.
type Holdings struct {
	Owner    string
	Lamports uint64 // SOL balance (9 decimals)
	// Tokens are every token account the owner has under SPL Token and Token-2022, zero balances
	// included, ordered by program, mint and account.
	Tokens []TokenBalance
	// Slot is the lowest slot the owner's reads were answered at.
	Slot uint64
	// Err is this owner's own failure (an *Error: the RPC answered the batch but not this owner's
	// reads); the fields above are then zero. Other owners are unaffected.
	Err error
}

// HoldingsResult is a batch of owners' holdings and the mints they hold.
type HoldingsResult struct {
	Owners []Holdings // in the order asked
	// Mints are every mint held, by address (decimals, extensions, metadata), read in the
	// second round trip; a mint that could not be read has Found false.
	Mints map[string]chain.SVMMint
}

type balanceResult struct {
	Context rpcContext `json:"context"`
	Value   uint64     `json:"value"`
}

type keyedAccount struct {
	Pubkey  string      `json:"pubkey"`
	Account *rpcAccount `json:"account"`
}

type tokenAccountsResult struct {
	Context rpcContext     `json:"context"`
	Value   []keyedAccount `json:"value"`
}

// Holdings reads the SOL balance and every SPL Token and Token-2022 account of each owner, with
// the held mints' decimals, extensions and metadata. Two round trips whatever the number of
// owners (up to MaxBatch/3 owners per batch before it is split): one JSON-RPC batch of getBalance
// and getTokenAccountsByOwner for each token program per owner, then one of getMultipleAccounts
// for the mints held (and their Metaplex metadata accounts) with getEpochInfo. An owner whose own
// reads fail has its Err set; the call fails only when a whole round trip does. Errors:
// chain.ErrInvalidAddress for a malformed owner, else *Error.
func (c *Client) Holdings(ctx context.Context, owners []string) (HoldingsResult, error) {
	const op = "holdings"
	keys := make([]sol.PublicKey, len(owners))
	for i, s := range owners {
		k, err := pubkey("owner", s)
		if err != nil {
			return HoldingsResult{}, err
		}
		keys[i] = k
	}
	res := HoldingsResult{Owners: make([]Holdings, len(owners)), Mints: map[string]chain.SVMMint{}}
	if len(keys) == 0 {
		return res, nil
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()

	type ownerCalls struct {
		balance *balanceResult
		tokens  [2]*tokenAccountsResult
		calls   []*call
	}
	per := make([]ownerCalls, len(keys))
	var calls []*call
	programs := [2]sol.PublicKey{tokenProgramID, token2022ID}
	for i, k := range keys {
		oc := ownerCalls{balance: new(balanceResult)}
		oc.calls = append(oc.calls, newCall("getBalance", oc.balance, k.String(), c.config()))
		for j, p := range programs {
			oc.tokens[j] = new(tokenAccountsResult)
			oc.calls = append(oc.calls, newCall("getTokenAccountsByOwner", oc.tokens[j], k.String(),
				map[string]string{"programId": p.String()}, c.config("encoding", "base64")))
		}
		per[i] = oc
		calls = append(calls, oc.calls...)
	}
	if err := c.batch(ctx, op, calls); err != nil {
		return HoldingsResult{}, err
	}

	var mints []sol.PublicKey
	seen := map[sol.PublicKey]bool{}
	for i, k := range keys {
		h := Holdings{Owner: k.String()}
		oc := per[i]
		if err := firstErr(oc.calls...); err != nil {
			res.Owners[i] = Holdings{Owner: h.Owner, Err: err}
			continue
		}
		h.Lamports, h.Slot = oc.balance.Value, oc.balance.Context.Slot
		for j, p := range programs {
			r := oc.tokens[j]
			h.Slot = min(h.Slot, r.Context.Slot)
			for _, ka := range r.Value {
				tb, acc, err := tokenBalance(p, k, ka)
				if err != nil {
					h = Holdings{Owner: h.Owner, Err: badResponse(op, "getTokenAccountsByOwner(%s): account %s: %v", k, ka.Pubkey, err)}
					break
				}
				h.Tokens = append(h.Tokens, tb)
				if !seen[acc.mint] {
					seen[acc.mint] = true
					mints = append(mints, acc.mint)
				}
			}
			if h.Err != nil {
				break
			}
		}
		res.Owners[i] = h
	}
	if len(mints) == 0 {
		return res, nil
	}

	mr := c.readMints(mints)
	if err := c.batch(ctx, op, mr.calls()); err != nil {
		return HoldingsResult{}, err
	}
	infos, err := mr.result(op)
	if err != nil {
		return HoldingsResult{}, err
	}
	for _, m := range infos {
		res.Mints[m.Address] = m
	}
	for i := range res.Owners {
		h := &res.Owners[i]
		for j := range h.Tokens {
			t := &h.Tokens[j]
			if m := res.Mints[t.Mint]; m.Found && m.Program == t.Program {
				t.Decimals = m.Decimals
			}
		}
		slices.SortFunc(h.Tokens, func(a, b TokenBalance) int {
			return cmp.Or(cmp.Compare(a.Program, b.Program), cmp.Compare(a.Mint, b.Mint), cmp.Compare(a.Account, b.Account))
		})
	}
	return res, nil
}

var _ chain.WalletSource = (*Source)(nil)

// Wallets reads owners' wallets for the portfolio service (chain.WalletSource): Client.Holdings
// of the owners that are Solana addresses (two round trips whatever their number, none when there
// is none), in the chain's shapes. Discovery is complete: every token account of SPL Token and
// Token-2022 the owner has. Native is the lamports; Tokens are described as TokenMetadata
// describes them (wrapped SOL without metadata is "Wrapped SOL", "WSOL"). An owner that is not a
// Solana address has Err wrapping chain.ErrInvalidAddress (and saying what it is instead: an EVM
// address, not base58, another length); one whose reads failed has the *Error of Holdings. Errors:
// *Error.
func (s *Source) Wallets(ctx context.Context, owners []string) (chain.Wallets, error) {
	out := chain.Wallets{Owners: make([]chain.Wallet, len(owners)), Tokens: map[string]chain.TokenMeta{}}
	var valid []string
	var at []int // index in owners of each valid owner
	for i, o := range owners {
		out.Owners[i] = chain.Wallet{Owner: o}
		if _, err := pubkey("owner", o); err != nil {
			out.Owners[i].Err = err
			continue
		}
		valid, at = append(valid, o), append(at, i)
	}
	if len(valid) == 0 {
		return out, nil
	}
	res, err := s.c.Holdings(ctx, valid)
	if err != nil {
		return chain.Wallets{}, err
	}
	if len(res.Owners) != len(valid) {
		return chain.Wallets{}, badResponse("holdings", "%d answers for %d owners", len(res.Owners), len(valid))
	}
	for j, h := range res.Owners {
		w := &out.Owners[at[j]]
		if h.Err != nil {
			w.Err = h.Err
			continue
		}
		w.Native, w.Block = new(big.Int).SetUint64(h.Lamports), h.Slot
		w.Tokens = make([]chain.WalletToken, len(h.Tokens))
		for k, t := range h.Tokens {
			w.Tokens[k] = chain.WalletToken{Account: t.Account, Token: t.Mint, Amount: t.Amount, Decimals: t.Decimals}
		}
	}
	for addr, m := range res.Mints {
		out.Tokens[addr] = mintMeta(m)
	}
	return out, nil
}

// mintMeta describes a mint as chain.TokenMeta: the name and symbol of its metadata (wrapped SOL
// without any is "Wrapped SOL", "WSOL"), decimals and supply; OK is false when it is not a mint.
func mintMeta(m chain.SVMMint) chain.TokenMeta {
	out := chain.TokenMeta{Address: m.Address}
	if !m.Found {
		return out
	}
	out.Decimals, out.TotalSupply, out.OK = m.Decimals, m.Supply, true
	out.Name, out.Symbol, _ = m.NameSymbol()
	return out
}

// tokenBalance parses one getTokenAccountsByOwner entry, checking that it is a token account of
// program owned by owner.
func tokenBalance(program, owner sol.PublicKey, ka keyedAccount) (TokenBalance, tokenAccount, error) {
	if ka.Account == nil {
		return TokenBalance{}, tokenAccount{}, layoutErr("no account")
	}
	if _, err := sol.PublicKeyFromBase58(ka.Pubkey); err != nil {
		return TokenBalance{}, tokenAccount{}, layoutErr("pubkey %q", ka.Pubkey)
	}
	if ka.Account.Owner != program.String() {
		return TokenBalance{}, tokenAccount{}, layoutErr("owned by %s, asked for %s", ka.Account.Owner, program)
	}
	data, err := ka.Account.bytes()
	if err != nil {
		return TokenBalance{}, tokenAccount{}, err
	}
	acc, err := parseTokenAccount(program, data)
	if err != nil {
		return TokenBalance{}, tokenAccount{}, err
	}
	if acc.owner != owner {
		return TokenBalance{}, tokenAccount{}, layoutErr("token account of %s, asked for %s", acc.owner, owner)
	}
	return TokenBalance{Account: ka.Pubkey, Mint: acc.mint.String(), Program: program.String(),
		Amount: new(big.Int).SetUint64(acc.amount), Decimals: -1, Frozen: acc.frozen, Native: acc.native}, acc, nil
}
