package solana

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"sync"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
)

// Source is the Solana chain's live reads for the market and portfolio services, in the shapes
// the EVM adapter answers them (chain.TokenMeta, chain.PairState, amounts as *big.Int), with the
// pools of any venue passed to NewSource. Addresses are base58, as the chain spells them. It is safe
// for concurrent use.
type Source struct {
	c      *Client
	venues []chain.SVMPoolVenue

	mu    sync.Mutex
	pools map[sol.PublicKey]poolLayout // what PoolAccounts answered for each pool read
}

// poolLayout is what a venue's PoolAccounts answered for a pool: it never changes for a pool, so
// a pool read before is read with its accounts in one round trip.
type poolLayout struct {
	venue    int // index in Source.venues
	names    []string
	accounts []sol.PublicKey
}

// maxCachedPools bounds the pools whose accounts a Source keeps; beyond it an arbitrary one is
// forgotten (and costs one more round trip when read again).
const maxCachedPools = 1 << 16

// NewSource returns the live reads of c, with the pools of the venues given (each decodes the
// pools of its program, chain.SVMPoolVenue).
func NewSource(c *Client, pools ...chain.SVMPoolVenue) *Source {
	return &Source{c: c, venues: pools, pools: map[sol.PublicKey]poolLayout{}}
}

// TokenMetadata reads mints (SPL Token or Token-2022), one entry per token in order: the name and
// symbol of its metadata (the Token-2022 metadata extension or the Metaplex account; wrapped SOL
// without either is "Wrapped SOL", "WSOL"), decimals and supply. OK is false when the address is
// not a mint of either token program. One round trip (Client.Mints). Errors: chain.ErrInvalidAddress
// for a malformed address, else *Error.
func (s *Source) TokenMetadata(ctx context.Context, tokens []string) ([]chain.TokenMeta, error) {
	ms, err := s.c.Mints(ctx, tokens)
	if err != nil {
		return nil, err
	}
	out := make([]chain.TokenMeta, len(ms))
	for i, m := range ms {
		out[i] = mintMeta(m)
	}
	return out, nil
}

// Balances reads, at one slot, each owner's SOL (lamports) and owners[i]'s balance of each mint of
// tokens[i] (a mint list per owner): the total over all the owner's token accounts of SPL Token and
// Token-2022, 0 when it has none (never nil: on Solana a missing balance is 0; a wrapped SOL
// balance is the wrapped lamports, apart from the SOL). One round trip: a JSON-RPC batch of
// getBalance and getTokenAccountsByOwner for each token program per distinct owner, sent again
// (with minContextSlot) when the node answered its calls at different slots. Errors:
// chain.ErrInvalidAddress for a malformed owner or mint; an *Error of kind
// chain.UpstreamInvalidInput when tokens does not have one list per owner; else *Error.
func (s *Source) Balances(ctx context.Context, owners []string, tokens [][]string) (native []*big.Int, balances [][]*big.Int, slot uint64, err error) {
	const op = "balances"
	if len(tokens) != len(owners) {
		return nil, nil, 0, newError(op, chain.UpstreamInvalidInput, fmt.Errorf("%d token lists for %d owners", len(tokens), len(owners)))
	}
	ownerKeys := make([]sol.PublicKey, len(owners))
	mintKeys := make([][]sol.PublicKey, len(owners))
	var distinct []sol.PublicKey
	index := map[sol.PublicKey]int{} // owner -> its reads
	for i, o := range owners {
		k, err := pubkey("owner", o)
		if err != nil {
			return nil, nil, 0, err
		}
		ownerKeys[i] = k
		if _, ok := index[k]; !ok {
			index[k] = len(distinct)
			distinct = append(distinct, k)
		}
		mintKeys[i] = make([]sol.PublicKey, len(tokens[i]))
		for j, t := range tokens[i] {
			if mintKeys[i][j], err = pubkey("token", t); err != nil {
				return nil, nil, 0, err
			}
		}
	}
	if len(owners) == 0 {
		return nil, nil, 0, nil
	}
	ctx, cancel := s.c.bound(ctx)
	defer cancel()

	programs := [2]sol.PublicKey{tokenProgramID, token2022ID}
	type ownerRead struct {
		balance *balanceResult
		tokens  [2]*tokenAccountsResult
	}
	var reads []ownerRead
	slot, err = s.c.atOneSlot(ctx, op, func() []*call {
		reads = make([]ownerRead, len(distinct))
		var calls []*call
		for i, k := range distinct {
			r := ownerRead{balance: new(balanceResult)}
			calls = append(calls, newCall("getBalance", r.balance, k.String(), s.c.config()))
			for j, p := range programs {
				r.tokens[j] = new(tokenAccountsResult)
				calls = append(calls, newCall("getTokenAccountsByOwner", r.tokens[j], k.String(),
					map[string]string{"programId": p.String()}, s.c.config("encoding", "base64")))
			}
			reads[i] = r
		}
		return calls
	})
	if err != nil {
		return nil, nil, 0, err
	}

	held := make([]map[sol.PublicKey]*big.Int, len(distinct)) // per distinct owner: mint -> total
	for i, k := range distinct {
		held[i] = map[sol.PublicKey]*big.Int{}
		for j, p := range programs {
			for _, ka := range reads[i].tokens[j].Value {
				_, acc, err := tokenBalance(p, k, ka)
				if err != nil {
					return nil, nil, 0, badResponse(op, "getTokenAccountsByOwner(%s): account %s: %v", k, ka.Pubkey, err)
				}
				total := held[i][acc.mint]
				if total == nil {
					total = new(big.Int)
					held[i][acc.mint] = total
				}
				total.Add(total, new(big.Int).SetUint64(acc.amount))
			}
		}
	}
	native = make([]*big.Int, len(owners))
	balances = make([][]*big.Int, len(owners))
	for i, k := range ownerKeys {
		r := index[k]
		native[i] = new(big.Int).SetUint64(reads[r].balance.Value)
		balances[i] = make([]*big.Int, len(mintKeys[i]))
		for j, m := range mintKeys[i] {
			balances[i][j] = new(big.Int)
			if total := held[r][m]; total != nil {
				balances[i][j].Set(total)
			}
		}
	}
	return native, balances, slot, nil
}

// PairStates reads pools of the Source's venues, one entry per address in order: the venue whose
// program owns the account decodes it with the accounts its PoolAccounts lists, all read at one
// slot (Block). An address that is no venue's pool has OK false. A pool read before costs one
// round trip (the pools and their accounts in getMultipleAccounts calls of one JSON-RPC batch); a
// pool not read before costs two (its account, to learn its accounts; then all the pools asked
// and their accounts together, so that every pool is read at one slot). Errors:
// chain.ErrInvalidAddress for a malformed address, else *Error.
func (s *Source) PairStates(ctx context.Context, pools []string) ([]chain.PairState, error) {
	const op = "pair states"
	keys := make([]sol.PublicKey, len(pools))
	var open []sol.PublicKey // the distinct pools still to read
	seen := map[sol.PublicKey]bool{}
	for i, p := range pools {
		k, err := pubkey("pool", p)
		if err != nil {
			return nil, err
		}
		keys[i] = k
		if !seen[k] {
			seen[k] = true
			open = append(open, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	ctx, cancel := s.c.bound(ctx)
	defer cancel()

	states := make(map[sol.PublicKey]chain.PairState, len(open))
	const maxRounds = 3 // learn the new pools' accounts, read; once more if a pool changed meanwhile
	for round := 1; ; round++ {
		known := s.layouts(open)
		var read []sol.PublicKey
		inRead := map[sol.PublicKey]bool{}
		add := func(k sol.PublicKey) {
			if !inRead[k] {
				inRead[k] = true
				read = append(read, k)
			}
		}
		for _, p := range open {
			add(p)
			for _, a := range known[p].accounts {
				add(a)
			}
		}
		accs, slot, err := s.c.readAccounts(ctx, op, read)
		if err != nil {
			return nil, err
		}
		learned := false
		var pending []sol.PublicKey
		for _, p := range open {
			pool, err := svmAccount(op, p, accs[p])
			if err != nil {
				return nil, err
			}
			lay, ok := s.layoutOf(pool)
			if !ok {
				states[p] = chain.PairState{Address: p.String(), Block: slot}
				s.forget(p)
				continue
			}
			pending = append(pending, p)
			if old, had := known[p]; !had || old.venue != lay.venue || !slices.Equal(old.names, lay.names) {
				s.remember(p, lay)
				learned = true
				continue
			}
			list := make([]chain.SVMAccount, len(lay.accounts))
			for i, a := range lay.accounts {
				if list[i], err = svmAccount(op, a, accs[a]); err != nil {
					return nil, err
				}
			}
			st := s.venues[lay.venue].PoolState(pool, list)
			st.Address, st.Block = p.String(), slot
			states[p] = st
		}
		if !learned {
			break
		}
		if round == maxRounds {
			return nil, badResponse(op, "pool accounts changed in each of %d reads", maxRounds)
		}
		open = pending // read every pool again, so that all are at one slot
	}
	out := make([]chain.PairState, len(keys))
	for i, k := range keys {
		out[i] = states[k]
	}
	return out, nil
}

// layoutOf asks the venue whose program owns pool for the pool's accounts; ok is false when no
// venue's pool is there.
func (s *Source) layoutOf(pool chain.SVMAccount) (poolLayout, bool) {
	if !pool.Exists {
		return poolLayout{}, false
	}
	for i, v := range s.venues {
		if v.Program() != pool.Owner {
			continue
		}
		names, ok := v.PoolAccounts(pool)
		if !ok {
			continue
		}
		lay := poolLayout{venue: i, names: slices.Clone(names), accounts: make([]sol.PublicKey, len(names))}
		for j, n := range names {
			k, err := sol.PublicKeyFromBase58(n)
			if err != nil {
				return poolLayout{}, false // a venue's bug: no pool we can read
			}
			lay.accounts[j] = k
		}
		return lay, true
	}
	return poolLayout{}, false
}

// layouts returns the known layouts of pools.
func (s *Source) layouts(pools []sol.PublicKey) map[sol.PublicKey]poolLayout {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[sol.PublicKey]poolLayout, len(pools))
	for _, p := range pools {
		if lay, ok := s.pools[p]; ok {
			out[p] = lay
		}
	}
	return out
}

func (s *Source) remember(pool sol.PublicKey, lay poolLayout) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pools[pool]; !ok && len(s.pools) >= maxCachedPools {
		for k := range s.pools {
			delete(s.pools, k)
			break
		}
	}
	s.pools[pool] = lay
}

func (s *Source) forget(pool sol.PublicKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.pools, pool)
}

// Accounts reads accounts as getMultipleAccounts answers them at the client's commitment (base64),
// one entry per key in order (Exists false for an address with no account), and the slot they
// were all read at. One round trip: calls of 100 keys in one JSON-RPC batch, sent again (with
// minContextSlot) when the node answered them at different slots. Errors: chain.ErrInvalidAddress
// for a malformed key, else *Error.
func (s *Source) Accounts(ctx context.Context, keys []string) ([]chain.SVMAccount, uint64, error) {
	const op = "accounts"
	ks := make([]sol.PublicKey, len(keys))
	for i, k := range keys {
		pk, err := pubkey("account", k)
		if err != nil {
			return nil, 0, err
		}
		ks[i] = pk
	}
	if len(ks) == 0 {
		return nil, 0, nil
	}
	ctx, cancel := s.c.bound(ctx)
	defer cancel()
	accs, slot, err := s.c.readAccounts(ctx, op, ks)
	if err != nil {
		return nil, 0, err
	}
	out := make([]chain.SVMAccount, len(ks))
	for i, k := range ks {
		if out[i], err = svmAccount(op, k, accs[k]); err != nil {
			return nil, 0, err
		}
	}
	return out, slot, nil
}

// readAccounts reads keys (base64, whole) at one slot: one round trip unless the node answers the
// calls at different slots. ctx must already be bounded.
func (c *Client) readAccounts(ctx context.Context, op string, keys []sol.PublicKey) (map[sol.PublicKey]*rpcAccount, uint64, error) {
	var ar *accountsRead
	slot, err := c.atOneSlot(ctx, op, func() []*call {
		ar = c.accounts(keys, nil)
		return ar.calls
	})
	if err != nil {
		return nil, 0, err
	}
	accs, _, err := ar.result(op)
	if err != nil {
		return nil, 0, err
	}
	return accs, slot, nil
}

// svmAccount is an account as chain.SVMAccount holds it (a nil account: Exists false).
func svmAccount(op string, k sol.PublicKey, a *rpcAccount) (chain.SVMAccount, error) {
	if a == nil {
		return chain.SVMAccount{Address: k.String()}, nil
	}
	data, err := a.bytes()
	if err != nil {
		return chain.SVMAccount{}, badResponse(op, "account %s: %v", k, err)
	}
	return chain.SVMAccount{Address: k.String(), Exists: true, Owner: a.Owner, Lamports: a.Lamports, Data: data}, nil
}

// slotAttempts bounds how many times atOneSlot sends a read whose answers came from different
// slots.
const slotAttempts = 3

// contextSlotted is a result with a context: the slot the call was answered at.
type contextSlotted interface{ contextSlot() uint64 }

func (m *multipleAccounts) contextSlot() uint64    { return m.Context.Slot }
func (b *balanceResult) contextSlot() uint64       { return b.Context.Slot }
func (r *tokenAccountsResult) contextSlot() uint64 { return r.Context.Slot }

// atOneSlot sends the calls build makes (each with a context result and its config last) as one
// JSON-RPC batch and returns the slot all their answers agree on. A node answers each call of a
// batch at its latest bank of the commitment, which may move on between two calls: when the slots
// differ, it sends fresh calls again with minContextSlot at the highest slot seen (one more round
// trip), at most slotAttempts times in all, then fails with KindBadResponse. A call's own failure
// fails the read. ctx must already be bounded.
func (c *Client) atOneSlot(ctx context.Context, op string, build func() []*call) (uint64, error) {
	var minSlot uint64
	for attempt := 1; ; attempt++ {
		calls := build()
		if minSlot > 0 {
			for _, cl := range calls {
				if cfg, ok := cl.params[len(cl.params)-1].(map[string]any); ok {
					cfg["minContextSlot"] = minSlot
				}
			}
		}
		if err := c.batch(ctx, op, calls); err != nil {
			return 0, err
		}
		if err := firstErr(calls...); err != nil {
			return 0, err
		}
		var lo, hi uint64
		for i, cl := range calls {
			r, ok := cl.out.(contextSlotted)
			if !ok {
				return 0, badResponse(op, "%s has no context slot", cl.method)
			}
			s := r.contextSlot()
			if i == 0 || s < lo {
				lo = s
			}
			hi = max(hi, s)
		}
		if lo == hi {
			return lo, nil
		}
		if attempt == slotAttempts {
			return 0, badResponse(op, "the RPC answered one batch at slots %d to %d, %d times", lo, hi, slotAttempts)
		}
		minSlot = hi
	}
}
