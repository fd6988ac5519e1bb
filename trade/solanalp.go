package trade

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/ent/marketpool"
)

// LP builders on a Solana chain: create a pool funded at once, add liquidity and remove it, on the
// request's venue among the chain's (chain.SVMLiquidityVenue; "" is the chain's only one). The
// venue checks the request, plans what the build reads and builds from it (the amounts, the
// instructions, its fee rows and metadata: its package under venue/); the service resolves
// the venue and the pool's mints, and builds through the adapter's generic builder in two round
// trips (the venue's accounts, with the user's, in one read with the blockhash and recent fees;
// the simulation), simulated before it is returned.
//
// An add or remove that names no tokens (tokenA and tokenB) takes the pool's mints from the market
// index; a pool the index does not know yet costs one more round trip (a read of the pool, which
// the venue decodes) first.
//
// Each build is one v0 transaction for User, who signs and pays. Metadata is the venue's (poolId,
// token0, token1, lpMint, lpDecimals, the amounts ...) with venue and the transaction's blockhash,
// lastValidBlockHeight, simulatedAtSlot, computeUnitLimit and computeUnitPrice. Fee rows: network
// and priority (SOL), rent of each account the transaction creates and keeps (SOL), then the
// venue's (transfer_fee of a Token-2022 side, in the token; venue: such as a pool creation fee).

// Transaction ids of the Solana LP builds.
const (
	solanaLPCreateTxID = "createPool"
	solanaLPAddTxID    = "addLiquidity"
	solanaLPRemoveTxID = "removeLiquidity"
)

// solanaLPTxIDs are the transaction ids of the operations.
var solanaLPTxIDs = map[string]string{chain.LiquidityCreate: solanaLPCreateTxID, chain.LiquidityAdd: solanaLPAddTxID, chain.LiquidityRemove: solanaLPRemoveTxID}

// buildSolanaLP builds the liquidity operation op (chain.LiquidityCreate, Add or Remove) of r.
func (s *Service) buildSolanaLP(ctx context.Context, consumerID int, sc *SolanaChain, op string, r LPRequest) (Build, error) {
	if op == chain.LiquidityRemove && (r.Bps < 1 || r.Bps > bpsDenominator) {
		return Build{}, fmt.Errorf("%w: bps must be 1 to 10000 (10000 removes everything)", ErrInvalid)
	}
	v, err := sc.lpVenue(r.Venue)
	if err != nil {
		return Build{}, err
	}
	if r.SlippageBps < 0 || r.SlippageBps >= bpsDenominator {
		return Build{}, fmt.Errorf("%w: slippageBps must be 0 to 9999", ErrInvalid)
	}
	req := chain.SVMLiquidityRequest{Op: op, Chain: sc.Name, User: r.User, Pool: r.Pool, TokenA: solanaLPMint(r.TokenA), TokenB: solanaLPMint(r.TokenB),
		AmountA: r.AmountA, AmountB: r.AmountB, Bps: r.Bps, SlippageBps: r.SlippageBps, FeeTier: r.FeeTier}
	// The pool's mints when the request names no tokens; a user or pool that is not an address is
	// the venue's to answer, before anything is read.
	if op != chain.LiquidityCreate && r.TokenA == "" && r.TokenB == "" && isSolanaAddress(r.User) && isSolanaAddress(r.Pool) {
		if req.Mint0, req.Mint1, err = s.solanaPoolMints(ctx, sc, v, r.Pool); err != nil {
			return Build{}, err
		}
	}
	plan, err := v.PlanLiquidity(req)
	if err != nil {
		return Build{}, err
	}
	txID := solanaLPTxIDs[op]
	var lb chain.SVMLiquidityBuild
	var buildErr error
	built, err := sc.Client.Build(ctx, chain.SVMBuildRequest{Op: "build lp " + op, Payer: r.User, Reads: plan.Reads(), Writable: plan.Writable(), Observe: plan.Observe(),
		Make: func(state map[string]chain.SVMAccount, slot uint64) ([]chain.SVMCall, error) {
			b, err := plan.Build(state, slot)
			if err != nil {
				buildErr = err
				return nil, err
			}
			lb = b
			return b.Calls, nil
		}})
	if buildErr != nil {
		return Build{}, buildErr
	}
	if err != nil {
		err = solanaError("lp "+op, err)
		if sim, ok := errors.AsType[*SimulationError](err); ok {
			for i, reason := range sim.Reasons {
				sim.Reasons[i] = txID + strings.TrimPrefix(reason, solanaTxID)
			}
		}
		return Build{}, err
	}
	b := Build{
		Transactions: []Tx{{ID: txID, From: r.User, Encoding: "base64", Payload: &Payload{Transaction: built.Transaction}}},
		Fees: []Fee{txFee(txID, "network", Native, built.NetworkFee-built.PriorityFee, chain.SOLDecimals),
			txFee(txID, FeePriority, Native, built.PriorityFee, chain.SOLDecimals)},
	}
	for _, a := range lb.Creates {
		b.Fees = append(b.Fees, txFee(txID, FeeRent, Native, built.After[a], chain.SOLDecimals))
	}
	for _, f := range lb.Fees {
		row := txFee(txID, f.Kind, f.Token, f.Amount, f.Decimals)
		row.FeeBps, row.Venue, row.Pool = f.Bps, f.Venue, f.Pool
		b.Fees = append(b.Fees, row)
	}
	md := lb.Metadata
	if md == nil {
		md = map[string]any{}
	}
	md["venue"] = v.Spec().Name
	md["blockhash"], md["lastValidBlockHeight"], md["simulatedAtSlot"] = built.Blockhash, built.LastValidBlockHeight, built.SimulatedSlot
	md["computeUnitLimit"], md["computeUnitPrice"] = built.ComputeUnitLimit, strconv.FormatUint(built.ComputeUnitPrice, 10)
	b.Metadata = md
	if err := s.tokens.issue(consumerID, sc.Name, &b, s.now()); err != nil {
		return Build{}, err
	}
	return b, nil
}

// lpVenue is the chain's liquidity venue called name; "" is the chain's only one. Errors:
// ErrNotSupported (a venue the chain does not have, naming those it has), ErrInvalid (no name
// while the chain has several).
func (c *SolanaChain) lpVenue(name string) (chain.SVMLiquidityVenue, error) {
	var names []string
	var only chain.SVMLiquidityVenue
	for _, v := range c.Venues {
		lv, ok := v.(chain.SVMLiquidityVenue)
		if !ok {
			continue
		}
		if lv.Spec().Name == name {
			return lv, nil
		}
		names, only = append(names, lv.Spec().Name), lv
	}
	served := "no venue is configured for them"
	switch {
	case name == "" && len(names) == 1:
		return only, nil
	case name == "" && len(names) > 1:
		return nil, fmt.Errorf("%w: name the venue: %s serve LP builds on %s", ErrInvalid, strings.Join(names, ", "), c.Name)
	case len(names) == 1:
		served = names[0] + " is"
	case len(names) > 1:
		served = strings.Join(names, ", ") + " are"
	}
	if name == "" {
		return nil, fmt.Errorf("%w: LP builds are not served on %s; %s", ErrNotSupported, c.Name, served)
	}
	return nil, fmt.Errorf("%w: %s LP builds are not served on %s; %s", ErrNotSupported, name, c.Name, served)
}

// solanaLPMint is a token parameter as a mint: Native is wrapped SOL.
func solanaLPMint(token string) string {
	if token == Native {
		return chain.WrappedSOL
	}
	return token
}

// isSolanaAddress reports whether s is a Solana address.
func isSolanaAddress(s string) bool {
	_, err := chain.ParseSolanaAddress("address", s)
	return err == nil
}

// solanaPoolMints resolves the mints of pool (an address) on venue v without reading the chain
// where it can: the market index's record of the pool, else one read of the pool account, which
// the venue decodes. Errors: ErrInvalid (nothing to read the pool with: name the tokens),
// ErrNotFound (no pool of the venue at the address), and the adapter's.
func (s *Service) solanaPoolMints(ctx context.Context, sc *SolanaChain, v chain.SVMLiquidityVenue, pool string) (string, string, error) {
	if s.tokens != nil && s.tokens.db != nil {
		p, err := s.tokens.db.MarketPool.Query().Where(marketpool.Chain(sc.Name), marketpool.Address(pool), marketpool.Venue(v.Spec().Name)).Only(ctx)
		if err == nil && p.Token0 != p.Token1 && isSolanaAddress(p.Token0) && isSolanaAddress(p.Token1) {
			return p.Token0, p.Token1, nil
		}
	}
	if sc.Accounts == nil {
		return "", "", fmt.Errorf("%w: name the pool's tokens (tokenA and tokenB)", ErrInvalid)
	}
	accs, _, err := sc.Accounts.Accounts(ctx, []string{pool})
	if err != nil {
		return "", "", solanaError("pool", err)
	}
	a := chain.SVMAccount{Address: pool}
	if len(accs) == 1 {
		a = accs[0]
		a.Address = pool
	}
	return v.PoolMints(sc.Name, a)
}
