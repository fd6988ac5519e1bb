package solana

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"math/big"
	"slices"
	"strconv"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
)

// Holders reads the largest holders of a mint, as owners. By default it scans every token account
// of the mint (getProgramAccounts on both token programs with a memcmp filter on the mint at
// offset 0 and a dataSlice of the owner and amount, 40 bytes per account), in one round trip with
// the mint itself: the list is Complete. When the RPC refuses the scan (a JSON-RPC error, or an
// answer beyond Options.MaxResponseBytes), or with LargestOnly, it reads getTokenLargestAccounts
// and then the owners of those accounts (getMultipleAccounts with a dataSlice): two round trips
// (three after a refused scan), and Complete is false. A mint that does not exist gives Found
// false, not an error. Errors: chain.ErrInvalidAddress, else *Error.
func (c *Client) Holders(ctx context.Context, mint string, o chain.SVMHoldersOptions) (chain.SVMHolderList, error) {
	const op = "holders"
	k, err := pubkey("mint", mint)
	if err != nil {
		return chain.SVMHolderList{}, err
	}
	if o.Limit <= 0 {
		o.Limit = 20
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()
	if !o.LargestOnly {
		l, err := c.scanHolders(ctx, op, k, o.Limit)
		if err == nil || !scanRefused(err) {
			return l, err
		}
	}
	return c.largestHolders(ctx, op, k, o.Limit)
}

// scanRefused reports whether a scan's failure is the RPC declining it, so that the largest
// accounts may do instead.
func scanRefused(err error) bool {
	return KindOf(err) == KindBadResponse || errors.Is(err, ErrResponseTooLarge)
}

// ownerSlice is the dataSlice of a token account's owner (offset 32) and amount (offset 64).
var ownerSlice = map[string]int{"offset": 32, "length": 40}

func (c *Client) scanHolders(ctx context.Context, op string, k sol.PublicKey, limit int) (chain.SVMHolderList, error) {
	mr := c.readMints([]sol.PublicKey{k})
	programs := [2]sol.PublicKey{tokenProgramID, token2022ID}
	var scans [2]*[]keyedAccount
	calls := mr.calls()
	for i, p := range programs {
		filters := []any{map[string]any{"memcmp": map[string]any{"offset": 0, "bytes": k.String()}}}
		if p == tokenProgramID {
			filters = append(filters, map[string]any{"dataSize": accountSize})
		}
		scans[i] = new([]keyedAccount)
		calls = append(calls, newCall("getProgramAccounts", scans[i], p.String(),
			c.config("encoding", "base64", "filters", filters, "dataSlice", ownerSlice)))
	}
	if err := c.batch(ctx, op, calls); err != nil {
		return chain.SVMHolderList{}, err
	}
	mints, err := mr.result(op)
	if err != nil {
		return chain.SVMHolderList{}, err
	}
	l := chain.SVMHolderList{Mint: mints[0], Complete: true}
	if err := firstErr(calls[len(calls)-2:]...); err != nil {
		return chain.SVMHolderList{}, err
	}
	if !l.Mint.Found {
		return l, nil
	}
	sums := map[sol.PublicKey]*chain.SVMHolder{}
	for i, p := range programs {
		if p.String() != l.Mint.Program && len(*scans[i]) > 0 {
			return chain.SVMHolderList{}, badResponse(op, "getProgramAccounts(%s) answered accounts of a %s mint", p, l.Mint.Program)
		}
		for _, ka := range *scans[i] {
			owner, amount, err := ownerAmount(ka, 40)
			if err != nil {
				return chain.SVMHolderList{}, badResponse(op, "getProgramAccounts: %v", err)
			}
			add(sums, owner, amount)
		}
	}
	rank(&l, sums, limit)
	return l, nil
}

type largestResult struct {
	Context rpcContext `json:"context"`
	Value   []struct {
		Address string `json:"address"`
		Amount  string `json:"amount"`
	} `json:"value"`
}

func (c *Client) largestHolders(ctx context.Context, op string, k sol.PublicKey, limit int) (chain.SVMHolderList, error) {
	mr := c.readMints([]sol.PublicKey{k})
	largest := new(largestResult)
	lc := newCall("getTokenLargestAccounts", largest, k.String(), c.config())
	if err := c.batch(ctx, op, append(mr.calls(), lc)); err != nil {
		return chain.SVMHolderList{}, err
	}
	mints, err := mr.result(op)
	if err != nil {
		return chain.SVMHolderList{}, err
	}
	l := chain.SVMHolderList{Mint: mints[0]}
	if !l.Mint.Found {
		return l, nil
	}
	if lc.err != nil {
		return chain.SVMHolderList{}, lc.err
	}
	var accounts []sol.PublicKey
	amounts := map[sol.PublicKey]uint64{}
	for _, v := range largest.Value {
		a, err := sol.PublicKeyFromBase58(v.Address)
		n, err2 := strconv.ParseUint(v.Amount, 10, 64)
		if err != nil || err2 != nil {
			return chain.SVMHolderList{}, badResponse(op, "getTokenLargestAccounts: entry %q amount %q", v.Address, v.Amount)
		}
		if n > 0 {
			accounts = append(accounts, a)
			amounts[a] = n
		}
	}
	sums := map[sol.PublicKey]*chain.SVMHolder{}
	if len(accounts) > 0 {
		ar := c.accounts(accounts, &[2]int{32, 32})
		if err := c.batch(ctx, op, ar.calls); err != nil {
			return chain.SVMHolderList{}, err
		}
		accs, _, err := ar.result(op)
		if err != nil {
			return chain.SVMHolderList{}, err
		}
		for _, a := range accounts {
			acc := accs[a]
			if acc == nil { // closed since: its balance went elsewhere
				continue
			}
			owner, _, err := ownerAmount(keyedAccount{Pubkey: a.String(), Account: acc}, 32)
			if err != nil {
				return chain.SVMHolderList{}, badResponse(op, "getMultipleAccounts: %v", err)
			}
			add(sums, owner, amounts[a])
		}
	}
	rank(&l, sums, limit)
	return l, nil
}

// ownerAmount decodes a token account's data slice: the owner, and the amount when n is 40.
func ownerAmount(ka keyedAccount, n int) (sol.PublicKey, uint64, error) {
	if ka.Account == nil {
		return sol.PublicKey{}, 0, layoutErr("%s: no account", ka.Pubkey)
	}
	if ka.Account.Owner != TokenProgram && ka.Account.Owner != Token2022Program {
		return sol.PublicKey{}, 0, layoutErr("%s: owned by %s", ka.Pubkey, ka.Account.Owner)
	}
	data, err := ka.Account.bytes()
	if err != nil {
		return sol.PublicKey{}, 0, err
	}
	if len(data) != n {
		return sol.PublicKey{}, 0, layoutErr("%s: data slice of %d bytes, asked for %d", ka.Pubkey, len(data), n)
	}
	var amount uint64
	if n == 40 {
		amount = binary.LittleEndian.Uint64(data[32:])
	}
	return sol.PublicKeyFromBytes(data[:32]), amount, nil
}

func add(sums map[sol.PublicKey]*chain.SVMHolder, owner sol.PublicKey, amount uint64) {
	h := sums[owner]
	if h == nil {
		h = &chain.SVMHolder{Owner: owner.String(), Amount: new(big.Int)}
		sums[owner] = h
	}
	h.Amount.Add(h.Amount, new(big.Int).SetUint64(amount))
	h.Accounts++
}

// rank keeps in l the owners with a positive balance, largest first, and sums the top ten.
func rank(l *chain.SVMHolderList, sums map[sol.PublicKey]*chain.SVMHolder, limit int) {
	all := make([]chain.SVMHolder, 0, len(sums))
	for _, h := range sums {
		if h.Amount.Sign() > 0 {
			all = append(all, *h)
		}
	}
	slices.SortFunc(all, func(a, b chain.SVMHolder) int {
		return cmp.Or(b.Amount.Cmp(a.Amount), cmp.Compare(a.Owner, b.Owner))
	})
	l.Owners = len(all)
	l.Top10 = new(big.Int)
	for i := range min(10, len(all)) {
		l.Top10.Add(l.Top10, all[i].Amount)
	}
	l.Holders = all[:min(limit, len(all))]
}
