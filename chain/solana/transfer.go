package solana

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	sol "github.com/gagliardetto/solana-go"
	associatedtoken "github.com/gagliardetto/solana-go/programs/associated-token-account"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/programs/token"
	"github.com/gagliardetto/solana-go/rpc"

	"github.com/partner-platform/partnerd/chain"
)

// maxComputeUnits is the most compute units a transaction may request.
const maxComputeUnits = 1_400_000

// UnitLimit is the compute unit limit a build sets for a transaction that used units in
// simulation: 10 % more plus 1,000, at most the cluster's maximum.
func UnitLimit(units uint64) uint32 {
	return uint32(min(units+units/10+1_000, maxComputeUnits))
}

type latestBlockhash struct {
	Context rpcContext `json:"context"`
	Value   struct {
		Blockhash            string `json:"blockhash"`
		LastValidBlockHeight uint64 `json:"lastValidBlockHeight"`
	} `json:"value"`
}

type prioritizationFee struct {
	Slot              uint64 `json:"slot"`
	PrioritizationFee uint64 `json:"prioritizationFee"`
}

type feeForMessage struct {
	Context rpcContext `json:"context"`
	Value   *uint64    `json:"value"`
}

// BuildTransfer builds an unsigned transfer of SOL (a System transfer) or of an SPL Token or
// Token-2022 token (TransferChecked; TransferCheckedWithFee, with the fee of the current epoch,
// for a Token-2022 mint with a transfer fee), creating the recipient's associated token account
// when it is missing (CreateIdempotent), with Compute Budget instructions (a unit limit from the
// simulation, a unit price from getRecentPrioritizationFees) and a fresh blockhash, and simulates
// it. The amount converts exactly with the token's decimals.
//
// Two round trips: one JSON-RPC batch of getMultipleAccounts (the wallets, the mint and its
// metadata account, the sender's and recipient's associated token accounts under both token
// programs), getLatestBlockhash, getRecentPrioritizationFees, getMinimumBalanceForRentExemption
// and (tokens) getEpochInfo; then one of simulateTransaction (sigVerify and
// replaceRecentBlockhash false; the unit limit at the maximum and the unit price at zero, so that
// the sender's balance after the simulation shows whether the priority fee is covered too) and
// getFeeForMessage.
//
// Errors: chain.ErrInvalidAddress, chain.ErrInvalidAmount (malformed, more decimals than the
// token has, or beyond a u64), chain.ErrInvalidSolanaToken (not a mint; a recipient that is a
// token account or a mint), chain.ErrNotSupported (a non-transferable token, a token with a
// transfer hook), chain.ErrPrerequisite (balances short of the amount and fees, a frozen or paused
// account, a new account below the rent-exempt minimum), *chain.SVMSimulationError, and *Error.
func (c *Client) BuildTransfer(ctx context.Context, r chain.SVMTransferRequest) (chain.SVMTransferBuild, error) {
	const op = "build transfer"
	from, err := pubkey("from", r.From)
	if err != nil {
		return chain.SVMTransferBuild{}, err
	}
	to, err := pubkey("to", r.To)
	if err != nil {
		return chain.SVMTransferBuild{}, err
	}
	native := r.Mint == ""
	var mint sol.PublicKey
	if !native {
		if mint, err = pubkey("mint", r.Mint); err != nil {
			return chain.SVMTransferBuild{}, err
		}
	}
	if native {
		if _, err := baseUnits(r.Amount, chain.SOLDecimals); err != nil {
			return chain.SVMTransferBuild{}, err
		}
	} else if _, err := chain.ParseHumanAmount(r.Amount, 255); err != nil {
		return chain.SVMTransferBuild{}, err
	}
	ctx, cancel := c.bound(ctx)
	defer cancel()

	// Round trip 1: the state.
	keys := []sol.PublicKey{from, to}
	writable := []sol.PublicKey{from, to}
	var atas [2][2]sol.PublicKey // [sender, recipient][SPL Token, Token-2022]
	if !native {
		for j, p := range []sol.PublicKey{tokenProgramID, token2022ID} {
			atas[0][j], atas[1][j] = ata(from, mint, p), ata(to, mint, p)
		}
		keys = append(keys, mint, metadataPDA(mint), atas[0][0], atas[0][1], atas[1][0], atas[1][1])
		writable = []sol.PublicKey{from, atas[0][0], atas[0][1], atas[1][0], atas[1][1]}
	}
	accRead := c.accounts(keys, nil)
	var latest latestBlockhash
	var prio []prioritizationFee
	var rent0 uint64
	var epoch epochInfo
	bhCall := newCall("getLatestBlockhash", &latest, c.config())
	prioCall := newCall("getRecentPrioritizationFees", &prio, keyStrings(writable))
	rentCall := newCall("getMinimumBalanceForRentExemption", &rent0, 0, c.config())
	calls := append(append([]*call{}, accRead.calls...), bhCall, prioCall, rentCall)
	var epochCall *call
	if !native {
		epochCall = newCall("getEpochInfo", &epoch, c.config())
		calls = append(calls, epochCall)
	}
	if err := c.batch(ctx, op, calls); err != nil {
		return chain.SVMTransferBuild{}, err
	}
	if err := firstErr(calls...); err != nil {
		return chain.SVMTransferBuild{}, err
	}
	accs, slot, err := accRead.result(op)
	if err != nil {
		return chain.SVMTransferBuild{}, err
	}
	blockhash, err := sol.HashFromBase58(latest.Value.Blockhash)
	if err != nil {
		return chain.SVMTransferBuild{}, badResponse(op, "getLatestBlockhash: blockhash %q", latest.Value.Blockhash)
	}
	b := chain.SVMTransferBuild{Blockhash: blockhash.String(), LastValidBlockHeight: latest.Value.LastValidBlockHeight, Slot: slot,
		ComputeUnitPrice: max(unitPrice(prio, c.opts.MaxUnitPrice), c.opts.MinUnitPrice), Source: from.String(), Destination: to.String()}

	fromAcc, toAcc := accs[from], accs[to]
	if fromAcc == nil || fromAcc.Lamports == 0 {
		return chain.SVMTransferBuild{}, fmt.Errorf("%w: the sender %s has no SOL to pay the network fee", chain.ErrPrerequisite, from)
	}
	if toAcc != nil && (toAcc.Owner == TokenProgram || toAcc.Owner == Token2022Program) {
		return chain.SVMTransferBuild{}, fmt.Errorf("%w: the recipient %s is a token account or a mint, not a wallet: give the wallet that owns it", chain.ErrInvalidSolanaToken, to)
	}

	var body []sol.Instruction
	if native {
		amount, _ := baseUnits(r.Amount, chain.SOLDecimals)
		if fromAcc.Lamports < amount {
			return chain.SVMTransferBuild{}, fmt.Errorf("%w: the sender holds %s SOL, less than %s SOL plus the network fee", chain.ErrPrerequisite,
				units(fromAcc.Lamports, chain.SOLDecimals), r.Amount)
		}
		if toAcc == nil && amount < rent0 {
			return chain.SVMTransferBuild{}, fmt.Errorf("%w: the recipient has no account yet, and a new account must receive at least %s SOL (the rent-exempt minimum)",
				chain.ErrPrerequisite, units(rent0, chain.SOLDecimals))
		}
		b.Amount, b.Received, b.Decimals = new(big.Int).SetUint64(amount), new(big.Int).SetUint64(amount), chain.SOLDecimals
		body = append(body, system.NewTransferInstruction(amount, from, to).Build())
	} else {
		m := mintFrom(mint, accs[mint], accs[metadataPDA(mint)], epoch.Epoch, slot)
		instrs, err := c.tokenTransfer(&b, m, r, from, to, accs, atas, rent0)
		if err != nil {
			return chain.SVMTransferBuild{}, err
		}
		body = instrs
	}

	// Round trip 2: simulate (unit limit at the maximum, unit price zero) and price the signature.
	simTx, err := transaction(blockhash, from, maxComputeUnits, 0, body)
	if err != nil {
		return chain.SVMTransferBuild{}, err
	}
	simBytes, err := simTx.MarshalBinary()
	if err != nil {
		return chain.SVMTransferBuild{}, fmt.Errorf("build transfer: encode: %w", err)
	}
	msgBytes, err := simTx.Message.MarshalBinary()
	if err != nil {
		return chain.SVMTransferBuild{}, fmt.Errorf("build transfer: encode: %w", err)
	}
	var sim rpc.SimulateTransactionResponse
	var fee feeForMessage
	simCall := newCall("simulateTransaction", &sim, base64.StdEncoding.EncodeToString(simBytes), c.config(
		"encoding", "base64", "sigVerify", false, "replaceRecentBlockhash", false,
		"accounts", map[string]any{"encoding": "base64", "addresses": []string{from.String()}}))
	feeCall := newCall("getFeeForMessage", &fee, base64.StdEncoding.EncodeToString(msgBytes), c.config())
	if err := c.batch(ctx, op, []*call{simCall, feeCall}); err != nil {
		return chain.SVMTransferBuild{}, err
	}
	if err := firstErr(simCall, feeCall); err != nil {
		return chain.SVMTransferBuild{}, err
	}
	if sim.Value == nil {
		return chain.SVMTransferBuild{}, badResponse(op, "simulateTransaction: no value")
	}
	if sim.Value.Err != nil {
		return chain.SVMTransferBuild{}, simulationError(op, sim.Value.Err, sim.Value.Logs)
	}
	if fee.Value == nil { // the blockhash is unknown to the node: it lags the one that gave it
		return chain.SVMTransferBuild{}, newError(op, KindUnavailable, errors.New("getFeeForMessage: blockhash not found"))
	}
	if sim.Value.UnitsConsumed == nil || *sim.Value.UnitsConsumed == 0 {
		return chain.SVMTransferBuild{}, badResponse(op, "simulateTransaction: no unitsConsumed")
	}
	b.UnitsConsumed = *sim.Value.UnitsConsumed
	b.ComputeUnitLimit = UnitLimit(b.UnitsConsumed)
	b.PriorityFee = priorityFee(b.ComputeUnitPrice, b.ComputeUnitLimit)
	b.NetworkFee = *fee.Value + b.PriorityFee
	if len(sim.Value.Accounts) == 1 && sim.Value.Accounts[0] != nil { // the sender after the simulation
		left := sim.Value.Accounts[0].Lamports
		if left < b.PriorityFee || (left-b.PriorityFee > 0 && left-b.PriorityFee < rent0) {
			return chain.SVMTransferBuild{}, fmt.Errorf("%w: the sender's %s SOL left after the transfer do not cover the priority fee of %s SOL and the rent-exempt minimum",
				chain.ErrPrerequisite, units(left, chain.SOLDecimals), units(b.PriorityFee, chain.SOLDecimals))
		}
	}

	tx, err := transaction(blockhash, from, b.ComputeUnitLimit, b.ComputeUnitPrice, body)
	if err != nil {
		return chain.SVMTransferBuild{}, err
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return chain.SVMTransferBuild{}, fmt.Errorf("build transfer: encode: %w", err)
	}
	b.Transaction = base64.StdEncoding.EncodeToString(raw)
	return b, nil
}

// tokenTransfer checks a token transfer against the state read and returns its instructions.
func (c *Client) tokenTransfer(b *chain.SVMTransferBuild, m chain.SVMMint, r chain.SVMTransferRequest, from, to sol.PublicKey,
	accs map[sol.PublicKey]*rpcAccount, atas [2][2]sol.PublicKey, rent0 uint64) ([]sol.Instruction, error) {
	if !m.Found {
		return nil, fmt.Errorf("%w: %s is not an SPL Token or Token-2022 mint", chain.ErrInvalidSolanaToken, m.Address)
	}
	mint := sol.MustPublicKeyFromBase58(m.Address)
	program, j := tokenProgramID, 0
	if m.Program == Token2022Program {
		program, j = token2022ID, 1
	}
	ext := m.Extensions
	switch {
	case ext.NonTransferable:
		return nil, fmt.Errorf("%w: %s is non-transferable", chain.ErrNotSupported, symbolOf(m))
	case ext.TransferHook != nil && ext.TransferHook.Program != "":
		return nil, fmt.Errorf("%w: %s calls the transfer hook program %s on every transfer; transfers through hooks are not built",
			chain.ErrNotSupported, symbolOf(m), ext.TransferHook.Program)
	case ext.Pausable != nil && ext.Pausable.Paused:
		return nil, fmt.Errorf("%w: %s is paused by its authority", chain.ErrPrerequisite, symbolOf(m))
	}
	amount, err := baseUnits(r.Amount, m.Decimals)
	if err != nil {
		return nil, err
	}
	src, dst := atas[0][j], atas[1][j]
	b.Source, b.Destination, b.Decimals, b.Mint = src.String(), dst.String(), m.Decimals, &m
	srcAcc := accs[src]
	if srcAcc == nil {
		return nil, fmt.Errorf("%w: the sender holds no %s (it has no associated token account for it)", chain.ErrPrerequisite, symbolOf(m))
	}
	sa, err := tokenAccountAt(program, srcAcc)
	if err != nil {
		return nil, newError("build transfer", KindBadResponse, fmt.Errorf("sender's token account %s: %w", src, err))
	}
	switch {
	case sa.mint != mint || sa.owner != from:
		return nil, newError("build transfer", KindBadResponse, fmt.Errorf("token account %s is not the sender's for the mint", src))
	case sa.frozen:
		return nil, fmt.Errorf("%w: the sender's %s account is frozen", chain.ErrPrerequisite, symbolOf(m))
	case sa.amount < amount:
		return nil, fmt.Errorf("%w: the sender holds %s %s, less than %s", chain.ErrPrerequisite, units(sa.amount, m.Decimals), symbolOf(m), r.Amount)
	}
	var instrs []sol.Instruction
	if dstAcc := accs[dst]; dstAcc != nil {
		da, err := tokenAccountAt(program, dstAcc)
		if err != nil {
			return nil, newError("build transfer", KindBadResponse, fmt.Errorf("recipient's token account %s: %w", dst, err))
		}
		if da.frozen {
			return nil, fmt.Errorf("%w: the recipient's %s account is frozen", chain.ErrPrerequisite, symbolOf(m))
		}
	} else {
		if ext.DefaultAccountState == "frozen" {
			return nil, fmt.Errorf("%w: new %s accounts start frozen: the recipient needs an account thawed by the freeze authority first",
				chain.ErrPrerequisite, symbolOf(m))
		}
		b.CreatesDestination = true
		b.RentLamports = rent0 * uint64(128+ataSize(m)) / 128
		instrs = append(instrs, associatedtoken.NewCreateIdempotentInstructionWithTokenProgram(from, to, mint, program).Build())
	}
	b.Amount, b.Received = new(big.Int).SetUint64(amount), new(big.Int).SetUint64(amount)
	switch {
	case m.TransferFee != nil:
		fee := m.TransferFee.Fee(amount)
		b.TransferFee, b.Fee = fee, m.TransferFee
		b.Received.SetUint64(amount - min(fee, amount))
		instrs = append(instrs, transferCheckedWithFee(amount, uint8(m.Decimals), fee, src, mint, dst, from))
	default:
		// TransferChecked has the same number and layout in both token programs.
		instrs = append(instrs, token.NewTransferCheckedInstruction(amount, uint8(m.Decimals), src, mint, dst, from, nil).Build().SetProgramID(program))
	}
	return instrs, nil
}

// transferCheckedWithFee is Token-2022's TransferFeeExtension::TransferCheckedWithFee: data
// [26 (TransferFeeExtension), 1 (TransferCheckedWithFee), amount u64 LE, decimals u8, fee u64 LE],
// accounts source (writable), mint, destination (writable), authority (signer). solana-go v1.24.0's
// token-2022 package cannot be imported (an import cycle with zk-elgamal-proof/confidential), so
// the instruction is encoded here from the program's documented layout.
func transferCheckedWithFee(amount uint64, decimals uint8, fee uint64, src, mint, dst, authority sol.PublicKey) sol.Instruction {
	data := make([]byte, 0, 19)
	data = append(data, 26, 1)
	data = binary.LittleEndian.AppendUint64(data, amount)
	data = append(data, decimals)
	data = binary.LittleEndian.AppendUint64(data, fee)
	return sol.NewInstruction(token2022ID, sol.AccountMetaSlice{
		sol.Meta(src).WRITE(), sol.Meta(mint), sol.Meta(dst).WRITE(), sol.Meta(authority).SIGNER(),
	}, data)
}

func tokenAccountAt(program sol.PublicKey, acc *rpcAccount) (tokenAccount, error) {
	if acc.Owner != program.String() {
		return tokenAccount{}, layoutErr("owned by %s", acc.Owner)
	}
	data, err := acc.bytes()
	if err != nil {
		return tokenAccount{}, err
	}
	return parseTokenAccount(program, data)
}

// ataSize is the size of a new associated token account of m: 165 bytes under SPL Token; under
// Token-2022, the account type byte and the extensions the program adds (ImmutableOwner always,
// and the account extensions the mint's extensions require), two more when that is a multisig's
// length.
func ataSize(m chain.SVMMint) int {
	if m.Program != Token2022Program {
		return accountSize
	}
	n := accountSize + 1 + 4 // ImmutableOwner
	e := m.Extensions
	if e.TransferFee != nil {
		n += 4 + 8 // TransferFeeAmount
	}
	if e.NonTransferable {
		n += 4 // NonTransferableAccount
	}
	if e.TransferHook != nil {
		n += 4 + 1 // TransferHookAccount
	}
	if e.Pausable != nil {
		n += 4 // PausableAccount
	}
	if n == multisigSize {
		n += 2
	}
	return n
}

// transaction assembles an unsigned legacy transaction paid by payer: the Compute Budget
// instructions, then body; its one signature is left zero.
func transaction(blockhash sol.Hash, payer sol.PublicKey, limit uint32, price uint64, body []sol.Instruction) (*sol.Transaction, error) {
	instrs := []sol.Instruction{
		computebudget.NewSetComputeUnitLimitInstruction(limit).Build(),
		computebudget.NewSetComputeUnitPriceInstruction(price).Build(),
	}
	instrs = append(instrs, body...)
	tx, err := sol.NewTransaction(instrs, blockhash, sol.TransactionPayer(payer))
	if err != nil {
		return nil, fmt.Errorf("build transfer: assemble: %w", err)
	}
	tx.Signatures = make([]sol.Signature, tx.Message.Header.NumRequiredSignatures)
	return tx, nil
}

// unitPrice estimates a priority fee, micro-lamports per compute unit: the 75th percentile of the
// recent slots' minimum fees on the accounts the transaction writes, at most maxPrice.
func unitPrice(fees []prioritizationFee, maxPrice uint64) uint64 {
	if len(fees) == 0 {
		return 0
	}
	v := make([]uint64, len(fees))
	for i, f := range fees {
		v[i] = f.PrioritizationFee
	}
	slices.Sort(v)
	return min(v[(len(v)*3+3)/4-1], maxPrice)
}

// priorityFee is the lamports a unit price and limit cost: price × limit / 10^6, rounded up.
func priorityFee(price uint64, limit uint32) uint64 {
	n := new(big.Int).Mul(new(big.Int).SetUint64(price), big.NewInt(int64(limit)))
	n.Add(n, big.NewInt(999_999))
	n.Quo(n, big.NewInt(1_000_000))
	if !n.IsUint64() {
		return math.MaxUint64
	}
	return n.Uint64()
}

// baseUnits converts a human amount exactly (chain.HumanToBaseUnits) and checks that it fits a
// u64, as every SPL amount must.
func baseUnits(s string, decimals int) (uint64, error) {
	n, err := chain.HumanToBaseUnits(s, decimals)
	if err != nil {
		return 0, err
	}
	if !n.IsUint64() {
		return 0, fmt.Errorf("%w: %s is beyond the largest amount a Solana token holds", chain.ErrInvalidAmount, s)
	}
	return n.Uint64(), nil
}

// units renders base units as a decimal string with the given decimals.
func units(n uint64, decimals int) string {
	s := fmt.Sprintf("%0*d", decimals+1, n)
	if decimals == 0 {
		return s
	}
	i, f := s[:len(s)-decimals], strings.TrimRight(s[len(s)-decimals:], "0")
	if f == "" {
		return i
	}
	return i + "." + f
}

func symbolOf(m chain.SVMMint) string {
	if m.Metadata != nil && m.Metadata.Symbol != "" {
		return m.Metadata.Symbol
	}
	return "token " + m.Address
}

// simulationError maps a failed simulation: the sender short of lamports is a prerequisite, a
// blockhash the node does not know is the node lagging, anything else a *chain.SVMSimulationError.
func simulationError(op string, txErr any, logs []string) error {
	b, err := json.Marshal(txErr)
	if err != nil {
		return badResponse(op, "simulateTransaction: undecodable error %v", txErr)
	}
	s := string(b)
	switch {
	case strings.Contains(s, "InsufficientFundsForFee"), strings.Contains(s, `"AccountNotFound"`):
		return fmt.Errorf("%w: the sender cannot pay the network fee", chain.ErrPrerequisite)
	case strings.Contains(s, "InsufficientFundsForRent"):
		return fmt.Errorf("%w: the transfer would leave an account below the rent-exempt minimum", chain.ErrPrerequisite)
	case strings.Contains(s, "BlockhashNotFound"):
		return newError(op, KindUnavailable, fmt.Errorf("simulateTransaction: %s", s))
	}
	return &chain.SVMSimulationError{Err: s, Logs: logs}
}
