package trade

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// A Solana chain in the trade service (SolanaChain, one Chain): transfer builds (SOL, SPL Token,
// Token-2022), transaction status by signature and confirm here; swap quotes (solanaquote.go),
// swap builds (solanaswap.go) and liquidity (solanalp.go) on the chain's venues when it has a pool
// reader. No Solana venue has farms here: farm, harvest and compound answer ErrNotSupported.

// SolanaClient is what the service needs of the Solana adapter (chain/solana's *Client), in the
// chain package's values: the service does not import the adapter.
type SolanaClient interface {
	// BuildTransfer builds and simulates an unsigned transfer of SOL or of a token.
	BuildTransfer(ctx context.Context, r chain.SVMTransferRequest) (chain.SVMTransferBuild, error)
	// SignatureStatuses reads the statuses of signatures, one entry per signature.
	SignatureStatuses(ctx context.Context, sigs []string) ([]chain.SVMSigStatus, error)
	// Transactions reads the statuses and messages of sent transactions, one entry per signature.
	Transactions(ctx context.Context, sigs []string) ([]chain.SVMSentTx, error)
	// Build reads the accounts r names, makes the transaction from them and simulates it.
	Build(ctx context.Context, r chain.SVMBuildRequest) (chain.SVMBuilt, error)
	// Diff names the differences (chain.SVMDiffPayer ...) between a built transaction (its base64
	// payload) and the sent one; it reads nothing.
	Diff(payload string, mined chain.SVMSentTx) ([]string, error)
}

// SolanaChain is a Solana cluster the service builds transfers on, reads statuses of and confirms
// builds on.
type SolanaChain struct {
	// Name is the chain's name in the API ("solana").
	Name string
	// Client reads and builds through the cluster's RPC.
	Client SolanaClient
	// Finality is the commitment a confirm waits for before confirmed true:
	// chain.SVMStatusFinalized (the default: rooted, cannot roll back; about 13 s on mainnet) or
	// chain.SVMStatusConfirmed (voted on by a supermajority; faster, and no optimistically
	// confirmed block has ever been rolled back on mainnet, but it is not final by the protocol's
	// definition).
	Finality string
	// Accounts reads the pools a swap quote considers; nil: swaps are not quoted on the chain.
	Accounts SolanaAccounts
	// Stablecoins are the chain's USD stablecoins (mints): with wrapped SOL, the middle tokens of
	// two-hop routes.
	Stablecoins []string
	// Venues are the chain's venues that serve swaps or liquidity (cmd passes those whose Status
	// says so): the ones implementing chain.SVMSwapVenue quote and build swaps, the ones
	// implementing chain.SVMLiquidityVenue build liquidity.
	Venues []chain.Venue

	quoter *solanaQuoter
}

// NewSolanaChain is the Solana chain c: its Finality defaults to chain.SVMStatusFinalized, and it
// quotes and builds swaps and liquidity when it has Accounts.
func NewSolanaChain(c SolanaChain) *SolanaChain {
	if c.Finality == "" {
		c.Finality = chain.SVMStatusFinalized
	}
	if c.Accounts != nil {
		c.quoter = newSolanaQuoter(&c)
	}
	return &c
}

func (c *SolanaChain) name() string { return c.Name }

func (c *SolanaChain) servesSwaps() bool { return c.quoter != nil }

func (c *SolanaChain) quoteSwap(ctx context.Context, s *Service, consumerID int, inputMint, outputMint string, amount *big.Int, slippageBps int) (Quote, error) {
	return s.quoteSolana(ctx, consumerID, c, inputMint, outputMint, amount, slippageBps)
}

func (c *SolanaChain) buildSwap(ctx context.Context, s *Service, consumerID int, r SwapRequest) (Build, error) {
	if r.Quote == nil {
		return Build{}, fmt.Errorf("%w: a Solana swap build takes the quote (quoteResponse)", ErrInvalid)
	}
	return s.buildSolanaSwap(ctx, consumerID, c, r.User, *r.Quote)
}

// lpCreate builds the creation of a pool of TokenA and TokenB (Native is wrapped SOL,
// paid in SOL), funded with AmountA and AmountB (human units), under FeeTier (the venue's fee tier
// index; 0 is the default). Errors: ErrInvalid (the same token twice, a bad address, not a mint,
// no such fee tier, a pool that already exists), ErrInvalidAmount, ErrNotSupported (a venue the
// chain does not have), ErrPrerequisite (balances), *SimulationError, and the adapter's and the
// store's.
func (c *SolanaChain) lpCreate(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	return s.buildSolanaLP(ctx, consumerID, c, chain.LiquidityCreate, r)
}

// lpAdd builds a deposit into Pool of at most AmountA and AmountB (human units; of
// TokenA and TokenB when given, which must be the pool's two mints in either order, Native naming
// wrapped SOL; else of the pool's token0 and token1), with SlippageBps. Errors: ErrInvalid (a bad
// address, tokens that are not the pool's), ErrNotFound (no pool of the venue at the address),
// ErrInvalidAmount, ErrNotSupported (a venue the chain does not have, deposits disabled),
// ErrPrerequisite (balances), *SimulationError, and the adapter's and the store's.
func (c *SolanaChain) lpAdd(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	return s.buildSolanaLP(ctx, consumerID, c, chain.LiquidityAdd, r)
}

// lpRemove builds a withdrawal of Bps (1..10000) of the user's LP of Pool, with
// SlippageBps (TokenA and TokenB, when given, only name the pool's mints). Errors: ErrInvalid (bps
// outside 1..10000, a bad address, tokens that are not the pool's), ErrNotFound (no pool of the
// venue), ErrNotSupported (a venue the chain does not have, withdrawals disabled), ErrPrerequisite
// (no LP of the pool held), *SimulationError, and the adapter's and the store's.
func (c *SolanaChain) lpRemove(ctx context.Context, s *Service, consumerID int, r LPRequest) (Build, error) {
	return s.buildSolanaLP(ctx, consumerID, c, chain.LiquidityRemove, r)
}

func (c *SolanaChain) lpFarm(_ context.Context, _ *Service, _ int, r LPRequest) (Build, error) {
	return Build{}, c.noFarms(r)
}

func (c *SolanaChain) lpHarvest(_ context.Context, _ *Service, _ int, r LPRequest) (Build, error) {
	return Build{}, c.noFarms(r)
}

func (c *SolanaChain) lpCompound(_ context.Context, _ *Service, _ int, r LPRequest) (Build, error) {
	return Build{}, c.noFarms(r)
}

// noFarms is the answer to a farm build on the chain: its venue has no farms.
func (c *SolanaChain) noFarms(r LPRequest) error {
	names := make([]string, len(c.Venues))
	for i, v := range c.Venues {
		names[i] = v.Spec().Name
	}
	return fmt.Errorf("%w: farms are not served on %s (%s: no farms); uniswap-v2 farms on the EVM chains", ErrNotSupported, c.Name,
		cmp.Or(r.Venue, strings.Join(names, ", "), "no venue"))
}

func (c *SolanaChain) buildTransfer(ctx context.Context, s *Service, consumerID int, r TransferRequest) (Build, error) {
	return s.buildSolanaTransfer(ctx, consumerID, c, r)
}

func (c *SolanaChain) status(ctx context.Context, hash string) (TxStatus, error) {
	return solanaStatus(ctx, c, hash)
}

func (c *SolanaChain) confirm(ctx context.Context, s *Service, tok issued, hashes []*string) (ConfirmResult, error) {
	return s.confirmSolana(ctx, c, tok, hashes)
}

// Fee row kinds of a Solana build, besides "network" (the signature fee).
const (
	FeePriority    = "priority"     // the priority fee: compute unit limit × unit price, in SOL
	FeeRent        = "rent"         // the rent-exempt deposit of an account the transaction creates, in SOL; it stays in the account
	FeeTransferFee = "transfer_fee" // a Token-2022 transfer fee withheld from the amount, in the token
)

// solanaTxID is the id of a Solana transfer build's one transaction.
const solanaTxID = "transfer"

// buildSolanaTransfer builds a transfer on a Solana chain: Amount (human units, exact with the
// mint's decimals; 9 for SOL) of Token (a mint address, or Native for SOL) from User, who signs
// and pays the fees, to To (a wallet; a token goes to its associated token account, created when
// missing). Two round trips, simulated before it is returned.
//
// The build has one transaction (ID "transfer", Encoding "base64", Payload.Transaction: a legacy
// transaction with User's signature slot empty and a recent blockhash), fee rows (network: the
// signature fee and priority: the priority fee, both in SOL; rent: the new token account's
// deposit, when one is created; transfer_fee: a Token-2022 fee withheld from the amount, in the
// token's base units, with its basis points), metadata (amounts, accounts, blockhash and its last
// valid block height, compute budget, the slot simulated at) and a confirmation token bound to
// the transaction and the fee rows.
//
// Errors: ErrInvalidAmount (malformed, more decimals than the mint has, beyond a u64); ErrInvalid
// (an address that is not a Solana address, also matching chain.ErrInvalidAddress; a token that
// is not a mint; a recipient that is a token account or a mint); ErrNotSupported (a
// non-transferable token, a token with a transfer hook); ErrPrerequisite (balances short of the
// amount and fees, a frozen or paused account); *SimulationError; the adapter's RPC errors
// (matching chain.ErrUpstreamUnavailable, ErrUpstreamTimeout, ErrUpstreamBadResponse and
// ErrCanceled); and the store's.
func (s *Service) buildSolanaTransfer(ctx context.Context, consumerID int, sc *SolanaChain, r TransferRequest) (Build, error) {
	req := chain.SVMTransferRequest{From: r.User, To: r.To, Amount: r.Amount}
	if r.Token != Native {
		req.Mint = r.Token
	}
	tb, err := sc.Client.BuildTransfer(ctx, req)
	if err != nil {
		return Build{}, solanaError("transfer", err)
	}
	b := Build{
		Transactions: []Tx{{ID: solanaTxID, From: r.User, Encoding: "base64", Payload: &Payload{Transaction: tb.Transaction}}},
		Fees:         []Fee{txFee(solanaTxID, "network", Native, tb.NetworkFee-tb.PriorityFee, chain.SOLDecimals), txFee(solanaTxID, FeePriority, Native, tb.PriorityFee, chain.SOLDecimals)},
	}
	if tb.CreatesDestination {
		b.Fees = append(b.Fees, txFee(solanaTxID, FeeRent, Native, tb.RentLamports, chain.SOLDecimals))
	}
	received := tb.Received
	if received == nil {
		received = tb.Amount
	}
	md := map[string]any{"token": r.Token, "to": r.To, "amount": r.Amount, "baseUnits": tb.Amount.String(), "decimals": tb.Decimals,
		"received": market.Units(received, tb.Decimals), "receivedBaseUnits": received.String(),
		"source": tb.Source, "destination": tb.Destination, "createsDestination": tb.CreatesDestination,
		"blockhash": tb.Blockhash, "lastValidBlockHeight": tb.LastValidBlockHeight,
		"computeUnitLimit": tb.ComputeUnitLimit, "computeUnitPrice": strconv.FormatUint(tb.ComputeUnitPrice, 10),
		"simulatedAtSlot": tb.Slot}
	if tb.Mint != nil {
		md["tokenProgram"] = tb.Mint.Program
	}
	if tb.Fee != nil {
		fee := newFee(FeeTransferFee, r.Token, new(big.Int).SetUint64(tb.TransferFee), tb.Decimals)
		fee.TxID, fee.FeeBps = solanaTxID, int(tb.Fee.BasisPoints)
		b.Fees = append(b.Fees, fee)
		md["transferFee"] = map[string]any{"amount": market.Units(new(big.Int).SetUint64(tb.TransferFee), tb.Decimals),
			"baseUnits": strconv.FormatUint(tb.TransferFee, 10), "basisPoints": tb.Fee.BasisPoints,
			"maximumFee": strconv.FormatUint(tb.Fee.MaximumFee, 10), "epoch": tb.Fee.Epoch}
	}
	b.Metadata = md
	if err := s.tokens.issue(consumerID, sc.Name, &b, s.now()); err != nil {
		return Build{}, err
	}
	return b, nil
}

// solanaStatus reads a signature's status (one round trip): unknown when the cluster does not know
// it (not sent, dropped, expired, or not propagated yet); pending at "processed" (executed in a
// block that may still be dropped with a fork); confirmed at "confirmed" (voted on by a
// supermajority); finalized at "finalized" (rooted); failed at confirmed or finalized when it
// executed and failed, with the error as the cluster reports it (compact JSON such as
// {"InstructionError":[2,{"Custom":1}]}). Block is the slot; Confirmations, while confirmed,
// counts the confirmed blocks on top of it, its own included. Errors: ErrInvalid (not a base58
// signature of 64 bytes), and the adapter's.
func solanaStatus(ctx context.Context, sc *SolanaChain, sig string) (TxStatus, error) {
	sts, err := sc.Client.SignatureStatuses(ctx, []string{sig})
	if err != nil {
		return TxStatus{}, solanaError("status", err)
	}
	if len(sts) != 1 {
		return TxStatus{}, fmt.Errorf("status: %d statuses for 1 signature", len(sts))
	}
	st := sts[0]
	switch {
	case !st.Found:
		return TxStatus{Status: StatusUnknown}, nil
	case st.Status != chain.SVMStatusConfirmed && st.Status != chain.SVMStatusFinalized:
		return TxStatus{Status: StatusPending, Block: st.Slot}, nil
	}
	out := TxStatus{Block: st.Slot}
	switch {
	case st.Failed:
		out.Status, out.Error = StatusFailed, st.Err
	case st.Status == chain.SVMStatusFinalized:
		out.Status = StatusFinalized
	default:
		out.Status, out.Confirmations = StatusConfirmed, int(st.Confirmations)+1
	}
	return out, nil
}

// commitmentRank orders commitments, weakest first.
var commitmentRank = map[string]int{chain.SVMStatusProcessed: 1, chain.SVMStatusConfirmed: 2, chain.SVMStatusFinalized: 3}

// confirmSolana confirms a Solana build: one signature per built transaction, in order (the
// payer's signature, which is the transaction's id). One round trip reads each transaction's
// status and message. Each must be found with its message, and be the built transaction: the same
// fee payer and the same instructions (programs, accounts in order, data) besides Compute Budget
// ones. A wallet may re-price the priority fee (Compute Budget instructions) or sign the same
// message with a newer blockhash: both are accepted, since neither changes what the transaction
// does. It must have succeeded and reached the chain's Finality.
//
// Not found: pending transaction_not_found; found without its message (only processed yet):
// receipt_pending; confirmed while Finality is finalized: finality_pending. Errors: ErrInvalid
// (wrong count, a null signature, a signature given twice or not base58 of 64 bytes);
// *VerificationError with, per signature, result "mismatch" and the fields that differ (payer,
// instructions) or result "failed" with the slot and the cluster's error; and the adapter's and
// the store's.
func (s *Service) confirmSolana(ctx context.Context, sc *SolanaChain, tok issued, signatures []*string) (ConfirmResult, error) {
	txs := tok.binding.Transactions
	if len(signatures) != len(txs) {
		return ConfirmResult{}, fmt.Errorf("%w: the build has %d transactions; give %d signatures, in its order", ErrInvalid, len(txs), len(txs))
	}
	sigs := make([]string, len(txs))
	seen := map[string]bool{}
	for i, sig := range signatures {
		if sig == nil {
			return ConfirmResult{}, fmt.Errorf("%w: transaction %s is not optional: give its signature", ErrInvalid, txs[i].ID)
		}
		if _, err := chain.ParseSolanaSignature(*sig); err != nil {
			return ConfirmResult{}, solanaError("confirm", err)
		}
		if seen[*sig] {
			return ConfirmResult{}, fmt.Errorf("%w: signature %s is given twice", ErrInvalid, *sig)
		}
		seen[*sig], sigs[i] = true, *sig
	}
	found, err := sc.Client.Transactions(ctx, sigs)
	if err != nil {
		return ConfirmResult{}, solanaError("confirm", err)
	}
	if len(found) != len(sigs) {
		return ConfirmResult{}, fmt.Errorf("confirm: %d transactions read for %d signatures", len(found), len(sigs))
	}
	var res ConfirmResult
	bad := map[string]TxCheck{}
	for i, f := range found {
		want := txs[i]
		if !f.Found {
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, PendingNotFound)
			continue
		}
		if !f.HasMessage {
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, PendingReceipt)
			continue
		}
		diff, err := sc.Client.Diff(want.Payload, f)
		if err != nil {
			return ConfirmResult{}, fmt.Errorf("confirm %s: %w", want.ID, err)
		}
		// Compute Budget re-pricing and a newer blockhash do not change what the transaction does.
		diff = slices.DeleteFunc(diff, func(d string) bool { return d == chain.SVMDiffComputeBudget || d == chain.SVMDiffBlockhash })
		switch {
		case len(diff) > 0:
			bad[sigs[i]] = TxCheck{ID: want.ID, Result: "mismatch", Fields: diff}
		case f.Failed:
			bad[sigs[i]] = TxCheck{ID: want.ID, Result: "failed", Slot: f.Slot, Reason: f.Err}
		case commitmentRank[f.Status] < commitmentRank[sc.Finality]:
			reason := PendingFinality
			if f.Status != chain.SVMStatusConfirmed {
				reason = PendingReceipt
			}
			res.PendingIDs, res.PendingReason = append(res.PendingIDs, want.ID), worse(res.PendingReason, reason)
		}
	}
	return s.settleConfirm(ctx, tok.id, res, bad)
}

// solanaError maps an error of the Solana adapter to the service's: its input and state errors to
// ErrInvalid, ErrInvalidAmount, ErrNotSupported and ErrPrerequisite (keeping the adapter's
// caller-safe message and its own sentinel, so that chain.ErrInvalidAddress still matches), a
// failed simulation to *SimulationError, and RPC errors wrapped with the operation (they match
// chain.ErrUpstreamUnavailable and its siblings).
func solanaError(op string, err error) error {
	var sim *chain.SVMSimulationError
	switch {
	case errors.As(err, &sim):
		reasons := []string{solanaTxID + ": " + sim.Err}
		for _, l := range sim.Logs[max(0, len(sim.Logs)-3):] { // the last program logs say where it failed
			reasons = append(reasons, solanaTxID+": "+l)
		}
		return &SimulationError{Reasons: reasons}
	case errors.Is(err, chain.ErrInvalidAmount):
		return both{ErrInvalidAmount, err}
	case errors.Is(err, chain.ErrInvalidAddress), errors.Is(err, chain.ErrInvalidSolanaToken), errors.Is(err, chain.ErrInvalidSolanaSignature):
		return both{ErrInvalid, err}
	case errors.Is(err, chain.ErrNotSupported):
		return both{ErrNotSupported, err}
	case errors.Is(err, chain.ErrPrerequisite):
		return both{ErrPrerequisite, err}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// both is an adapter's error classified as one of the service's: its message is the adapter's,
// and errors.Is matches the service's error and everything the adapter's matches.
type both struct {
	kind, err error
}

func (b both) Error() string   { return b.err.Error() }
func (b both) Unwrap() []error { return []error{b.kind, b.err} }
