package chain

import (
	"errors"
	"math/big"

	"github.com/partner-platform/partnerd/chain/svm"
)

// What a Solana (SVM) adapter builds for the trade service, as plain values (no Solana SDK here):
// a transaction made from accounts read at one slot (a venue's swap or liquidity instructions),
// and a transfer of SOL or of a token, each simulated before it is returned. chain/solana builds
// them; the trade service prices and issues them. Addresses are base58; amounts are base units.

// SOLDecimals are SOL's decimals: a lamport is 10^-9 SOL.
const SOLDecimals = 9

// ErrInvalidSolanaToken: the named mint is not an initialized SPL Token or Token-2022 mint, or the
// recipient of a token transfer is itself a token account or a mint (400 invalid_request). It is
// wrapped with a message that is safe to show.
var ErrInvalidSolanaToken = errors.New("invalid token")

// SVMSimulationError is a Solana build whose simulation failed (422 simulation_failed). Err is the
// transaction error as the RPC reported it (compact JSON such as
// {"InstructionError":[2,{"Custom":1}]}); Logs are the program logs, for the caller's diagnosis.
type SVMSimulationError struct {
	Err  string
	Logs []string
}

func (e *SVMSimulationError) Error() string { return "simulation failed: " + e.Err }

// SVMBuildRequest is a transaction to build from the chain's state: Reads are the accounts Make
// needs, read in the first round trip with the blockhash and the recent priority fees; Make turns
// them into the transaction's instructions (after the Compute Budget ones, which the build adds).
type SVMBuildRequest struct {
	Op    string // names the build in errors ("build swap")
	Payer string // pays the fees and signs
	Reads []string
	// Writable are the accounts the transaction will write, whose recent priority fees price it.
	Writable []string
	// Observe are accounts whose lamports after the simulation the build reports (SVMBuilt.After):
	// what an account the transaction creates holds is its rent-exempt deposit.
	Observe []string
	// Make returns the instructions from the accounts read (by address; Exists false for none) at
	// slot. Its error is the build's.
	Make func(accounts map[string]SVMAccount, slot uint64) ([]SVMCall, error)
}

// SVMBuilt is a built, simulated, unsigned v0 transaction (no address lookup table) with the
// payer's signature slot empty.
type SVMBuilt struct {
	Transaction          string // base64 of the wire transaction
	Blockhash            string
	LastValidBlockHeight uint64
	// Slot is the slot the state was read at; SimulatedSlot the one the simulation ran at.
	Slot, SimulatedSlot uint64
	UnitsConsumed       uint64
	ComputeUnitLimit    uint32
	ComputeUnitPrice    uint64 // micro-lamports per compute unit
	PriorityFee         uint64 // lamports
	NetworkFee          uint64 // lamports: the signature fee plus the priority fee
	// Logs are the simulation's program logs.
	Logs []string
	// After are the lamports of the Observe accounts after the simulation (0: no account).
	After map[string]uint64
}

// SVMTransferRequest is an unsigned transfer to build: Amount (human units, such as "12.5") of SOL
// (Mint empty) or of the token Mint, from the wallet From (which signs and pays the fees) to the
// wallet To (a token transfer credits To's associated token account, created when missing).
type SVMTransferRequest struct {
	From, To string
	Mint     string
	Amount   string
}

// SVMTransferBuild is a built, simulated, unsigned transfer.
type SVMTransferBuild struct {
	// Transaction is the unsigned legacy transaction, base64: one signature slot (From's), zero
	// until signed, and a recent blockhash valid until LastValidBlockHeight.
	Transaction          string
	Blockhash            string
	LastValidBlockHeight uint64
	// Amount is debited from the sender, base units; Decimals are the token's (9 for SOL).
	Amount   *big.Int
	Decimals int
	// Received is credited to the recipient: Amount less TransferFee.
	Received *big.Int
	// TransferFee is the Token-2022 transfer fee withheld from Amount in the recipient's account,
	// base units, at the schedule Fee states; 0 and nil otherwise.
	TransferFee uint64
	Fee         *svm.FeeSchedule
	// Mint is the token as read for the build; nil for SOL.
	Mint *SVMMint
	// Source and Destination are the token accounts (the wallets for SOL).
	Source, Destination string
	// CreatesDestination reports that the transaction creates the recipient's associated token
	// account (idempotently), paying RentLamports from the sender into it.
	CreatesDestination bool
	RentLamports       uint64
	// ComputeUnitLimit is the simulation's use plus a margin; ComputeUnitPrice the priority fee,
	// micro-lamports per unit (the 75th percentile of recent fees on the written accounts, within
	// chain/solana's Options.MinUnitPrice and MaxUnitPrice).
	ComputeUnitLimit uint32
	ComputeUnitPrice uint64
	UnitsConsumed    uint64
	// NetworkFee is what the sender pays the cluster, lamports: the signature fee and the
	// priority fee (ComputeUnitLimit × ComputeUnitPrice / 10^6, rounded up).
	NetworkFee  uint64
	PriorityFee uint64
	// Slot is the slot the state was read at.
	Slot uint64
}
