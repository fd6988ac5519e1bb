package chain

import "fmt"

// What a Solana (SVM) indexer reads: confirmed transactions, as plain values (no Solana SDK here),
// and the interface through which a venue reads its pools and pool events from them. Addresses and
// signatures are base58, exactly as the chain spells them: base58 is case-sensitive, so they are
// never lower-cased. Amounts are base units.

// SVMTx is one confirmed transaction as getTransaction answers it, with every account index
// resolved to its address.
type SVMTx struct {
	Signature string
	Slot      uint64
	// Time is the block time, unix seconds.
	Time int64
	// Index is the transaction's place among the transactions the indexer read in its slot, in
	// the order the chain executed them (0, 1, ...). EventIndex builds events' log indexes from it.
	Index int
	// FeePayer is the first account key: the signer that paid the fee.
	FeePayer string
	// Failed reports that the transaction executed and failed (it changed nothing but the fee
	// payer's balance); Err is its error as the RPC reported it (compact JSON), empty otherwise.
	// A follower does not hand failed transactions to an SVMIndexer.
	Failed bool
	Err    string
	// Accounts are the account keys: the message's, then those loaded from address lookup tables
	// (writable, then read-only), as account indexes count them.
	Accounts []string
	// Instructions are the top-level instructions and the instructions they invoked, in execution
	// order: each top-level instruction followed by its inner instructions.
	Instructions []SVMInstruction
	// TokenBalances are the token accounts the transaction holds a balance of before or after, one
	// entry per account.
	TokenBalances []SVMTokenBalance
	// Logs are the log messages, in order.
	Logs []string
	// LogsComplete reports that Logs were read whole and matched to the instructions, so each
	// instruction's LogData is exactly what it logged. When false (the node truncated the logs, or
	// they did not match the instructions) every LogData is nil and unknown.
	LogsComplete bool
}

// SVMInstruction is one instruction of a transaction, top-level or invoked by another.
type SVMInstruction struct {
	Program  string
	Accounts []string
	Data     []byte
	// Outer is the index (among the top-level instructions) of the top-level instruction this
	// one is or was invoked under.
	Outer int
	// Depth is 1 for a top-level instruction and 2 or more for an invoked one (the invocation
	// stack height).
	Depth int
	// LogData are the payloads the instruction itself logged with sol_log_data ("Program data:"
	// lines, base64-decoded: Anchor's events), in order. Known only when SVMTx.LogsComplete.
	LogData [][]byte
}

// SVMTokenBalance is a token account's balance before and after a transaction (the RPC's
// preTokenBalances and postTokenBalances). An account that did not exist before (or after) has a
// Pre (or Post) of 0.
type SVMTokenBalance struct {
	AccountIndex int
	Account      string
	Mint         string
	Owner        string // the token account's owner; empty when the node does not say
	Program      string // the token program (SPL Token or Token-2022); empty when the node does not say
	Pre, Post    uint64
}

// TokenBalance returns the balance entry of a token account, or false when the transaction holds
// none.
func (t *SVMTx) TokenBalance(account string) (SVMTokenBalance, bool) {
	for _, b := range t.TokenBalances {
		if b.Account == account {
			return b, true
		}
	}
	return SVMTokenBalance{}, false
}

// SVMMaxEventsPerTx bounds the events one transaction yields: the ordinal EventIndex takes.
const SVMMaxEventsPerTx = 1 << 16

// EventIndex is the PoolEvent.LogIndex of the n-th event (0 <= n < SVMMaxEventsPerTx) a decoder
// reads from the transaction: Index × 2^16 + n. Slot and log index then order a slot's events as
// the chain executed them and name each one uniquely, and the same transaction always yields the
// same log indexes, so reading a range again stores nothing twice. Decoders number their events
// from the instruction they come from (its position in Instructions), never from what they
// skipped.
func (t *SVMTx) EventIndex(n int) uint {
	if n < 0 || n >= SVMMaxEventsPerTx {
		panic(fmt.Sprintf("chain: event ordinal %d outside 0..%d", n, SVMMaxEventsPerTx-1))
	}
	return uint(t.Index)*SVMMaxEventsPerTx + uint(n)
}

// SVMPool is a pool an SVMIndexer saw created, with its LP token's mint ("" when the pool has no
// fungible LP token). The follower reads the pool's mints and LP mint and indexes them as tokens,
// and records the LP mint as the pool's IndexedPool.LPToken (an LPToken the indexer set itself
// wins).
type SVMPool struct {
	IndexedPool
	LPMint string
}

// SVMIndexer reads one venue's pools and pool events from the transactions of its program: the
// Solana follower hands it, in chain order, every successful transaction that names Program()
// among its accounts (as a top-level instruction, or invoked by another program). A venue package
// implements it; the follower is the same for every venue.
//
// What it returns means what an EVM follower's rows mean (see PoolEvent): pools by their state
// account, Token0 and Token1 in the venue's own order, events with Block = the slot, TxHash = the
// signature, Time = the block time, Trader = the account that traded (the instruction's payer or
// owner), LogIndex from tx.EventIndex, and a Sync event just before each Swap, Mint or Burn with
// the pool's reserves after it, as the venue's program prices them.
type SVMIndexer interface {
	// Program is the venue's program id.
	Program() string
	// Accounts names the accounts whose current data Decode needs besides the transaction (such as
	// a pool's fee configuration, which transactions name but do not carry); nil when none. The
	// follower reads them (at its commitment, once per batch) and passes them to Decode.
	Accounts(tx *SVMTx) []string
	// Decode returns the pools tx creates and the events it makes in pools of the venue, in chain
	// order. accounts holds the data of the accounts Accounts named (an account that does not
	// exist is absent). Instructions of the program it does not index (admin instructions) are
	// skipped. An error means the transaction contradicts itself (an instruction of the program
	// that does not decode, balances that do not add up): the follower skips it and says so.
	Decode(tx *SVMTx, accounts map[string][]byte) (pools []SVMPool, events []PoolEvent, err error)
}
