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
)

// Holder is one owner of a token: the sum of its token accounts of the mint.
type Holder struct {
	Owner    string
	Amount   *big.Int // base units
	Accounts int      // token accounts summed
}

// HolderList is a mint's largest holders.
type HolderList struct {
	// Mint is the mint as read with the holders; when Found is false the list is empty.
	Mint Mint
	// Holders are owners (not token accounts) with a positive balance, largest first (ties by
	// owner), at most the limit asked.
	Holders []Holder
	// Owners counts the distinct owners with a positive balance that were seen: all of them when
	// Complete, only those among the largest token accounts otherwise.
	Owners int
	// Top10 is the sum of the ten largest owners' balances.
	Top10 *big.Int
	// Complete reports that every token account of the mint was scanned (getProgramAccounts).
	// When false, only the RPC's largest token accounts (getTokenLargestAccounts, at most 20)
	// were summed per owner: an owner's other, smaller accounts are missed, and so may be owners
	// whose balance is spread over small accounts.
	Complete bool
}

// Top10SharePpm is Top10 in parts per million of the supply; 0 when the supply is 0 or unknown.
func (l HolderList) Top10SharePpm() int64 {
	if l.Top10 == nil || l.Mint.Supply == nil || l.Mint.Supply.Sign() == 0 {
		return 0
	}
	n := new(big.Int).Mul(l.Top10, big.NewInt(1_000_000))
	return n.Quo(n, l.Mint.Supply).Int64()
}

// HoldersOptions tunes Holders.
type HoldersOptions struct {
	// Limit is the most holders returned; default 20.
	Limit int
	// LargestOnly skips the scan of every token account and reads only the largest accounts
	// (for mints with millions of accounts, which providers refuse or take long to scan).
	LargestOnly bool
}

// Holders reads the largest holders of a mint, as owners. By default it scans every token account
// of the mint (getProgramAccounts on both token programs with a memcmp filter on the mint at
// offset 0 and a dataSlice of the owner and amount, 40 bytes per account), in one round trip with
// the mint itself: the list is Complete. When the RPC refuses the scan (a JSON-RPC error, or an
// answer beyond Options.MaxResponseBytes), or with LargestOnly, it reads getTokenLargestAccounts
// and then the owners of those accounts (getMultipleAccounts with a dataSlice): two round trips
// (three after a refused scan), and Complete is false. A mint that does not exist gives Found
// false, not an error. Errors: chain.ErrInvalidAddress, else *Error.
func (c *Client) Holders(ctx context.Context, mint string, o HoldersOptions) (HolderList, error) {
	const op = "holders"
	k, err := pubkey("mint", mint)
	if err != nil {
		return HolderList{}, err
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

func (c *Client) scanHolders(ctx context.Context, op string, k sol.PublicKey, limit int) (HolderList, error) {
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
		return HolderList{}, err
	}
	mints, err := mr.result(op)
	if err != nil {
		return HolderList{}, err
	}
	l := HolderList{Mint: mints[0], Complete: true}
	if err := firstErr(calls[len(calls)-2:]...); err != nil {
		return HolderList{}, err
	}
	if !l.Mint.Found {
		return l, nil
	}
	sums := map[sol.PublicKey]*Holder{}
	for i, p := range programs {
		if p.String() != l.Mint.Program && len(*scans[i]) > 0 {
			return HolderList{}, badResponse(op, "getProgramAccounts(%s) answered accounts of a %s mint", p, l.Mint.Program)
		}
		for _, ka := range *scans[i] {
			owner, amount, err := ownerAmount(ka, 40)
			if err != nil {
				return HolderList{}, badResponse(op, "getProgramAccounts: %v", err)
			}
			add(sums, owner, amount)
		}
	}
	l.rank(sums, limit)
	return l, nil
}

type largestResult struct {
	Context rpcContext `json:"context"`
	Value   []struct {
		Address string `json:"address"`
		Amount  string `json:"amount"`
	} `json:"value"`
}

func (c *Client) largestHolders(ctx context.Context, op string, k sol.PublicKey, limit int) (HolderList, error) {
	mr := c.readMints([]sol.PublicKey{k})
	largest := new(largestResult)
	lc := newCall("getTokenLargestAccounts", largest, k.String(), c.config())
	if err := c.batch(ctx, op, append(mr.calls(), lc)); err != nil {
		return HolderList{}, err
	}
	mints, err := mr.result(op)
	if err != nil {
		return HolderList{}, err
	}
	l := HolderList{Mint: mints[0]}
	if !l.Mint.Found {
		return l, nil
	}
	if lc.err != nil {
		return HolderList{}, lc.err
	}
	var accounts []sol.PublicKey
	amounts := map[sol.PublicKey]uint64{}
	for _, v := range largest.Value {
		a, err := sol.PublicKeyFromBase58(v.Address)
		n, err2 := strconv.ParseUint(v.Amount, 10, 64)
		if err != nil || err2 != nil {
			return HolderList{}, badResponse(op, "getTokenLargestAccounts: entry %q amount %q", v.Address, v.Amount)
		}
		if n > 0 {
			accounts = append(accounts, a)
			amounts[a] = n
		}
	}
	sums := map[sol.PublicKey]*Holder{}
	if len(accounts) > 0 {
		ar := c.accounts(accounts, &[2]int{32, 32})
		if err := c.batch(ctx, op, ar.calls); err != nil {
			return HolderList{}, err
		}
		accs, _, err := ar.result(op)
		if err != nil {
			return HolderList{}, err
		}
		for _, a := range accounts {
			acc := accs[a]
			if acc == nil { // closed since: its balance went elsewhere
				continue
			}
			owner, _, err := ownerAmount(keyedAccount{Pubkey: a.String(), Account: acc}, 32)
			if err != nil {
				return HolderList{}, badResponse(op, "getMultipleAccounts: %v", err)
			}
			add(sums, owner, amounts[a])
		}
	}
	l.rank(sums, limit)
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

func add(sums map[sol.PublicKey]*Holder, owner sol.PublicKey, amount uint64) {
	h := sums[owner]
	if h == nil {
		h = &Holder{Owner: owner.String(), Amount: new(big.Int)}
		sums[owner] = h
	}
	h.Amount.Add(h.Amount, new(big.Int).SetUint64(amount))
	h.Accounts++
}

// rank keeps the owners with a positive balance, largest first, and sums the top ten.
func (l *HolderList) rank(sums map[sol.PublicKey]*Holder, limit int) {
	all := make([]Holder, 0, len(sums))
	for _, h := range sums {
		if h.Amount.Sign() > 0 {
			all = append(all, *h)
		}
	}
	slices.SortFunc(all, func(a, b Holder) int {
		return cmp.Or(b.Amount.Cmp(a.Amount), cmp.Compare(a.Owner, b.Owner))
	})
	l.Owners = len(all)
	l.Top10 = new(big.Int)
	for i := range min(10, len(all)) {
		l.Top10.Add(l.Top10, all[i].Amount)
	}
	l.Holders = all[:min(limit, len(all))]
}
