package chain

// How a Solana venue's pools are read live: the adapter reads raw accounts (one JSON-RPC round trip
// for what it already knows of a pool), the venue decodes them. Addresses are base58, as the chain
// spells them.

// SVMAccount is an account as getMultipleAccounts answers it; Exists is false for an address with
// no account (then the other fields are zero).
type SVMAccount struct {
	Address  string
	Exists   bool
	Owner    string
	Lamports uint64
	Data     []byte
}

// SVMPoolVenue is a Solana venue's pool decoding for live reads (venue/raydium implements it).
type SVMPoolVenue interface {
	// Program is the venue's program id: the owner of its pool accounts.
	Program() string
	// PoolAccounts lists the accounts, besides the pool account itself, that the pool's state
	// needs (its vaults, its config, its mints), given the pool account. They never change for a
	// pool, so a reader may keep them and read the pool and them together. ok is false when pool
	// is not one of the venue's pools.
	PoolAccounts(pool SVMAccount) (accounts []string, ok bool)
	// PoolState decodes the pool's state from the pool account and the accounts PoolAccounts
	// listed, in its order, all read at one slot: the reserves as the pool's curve sees them (for
	// a pool that owes fees out of its vaults, the vaults less what it owes), its LP supply as the
	// pool counts it (TotalSupply: Raydium's lp_supply, which includes LP locked at creation and
	// never minted), its LP token, and its mints as Token0 and Token1 (Block is left to the
	// reader: the slot). OK is false when pool is not one of the venue's pools or an account it
	// needs is missing.
	PoolState(pool SVMAccount, accounts []SVMAccount) PairState
}

// SVMCall is an instruction to build into a transaction, as plain values: the program, its
// accounts with the flags the transaction gives them, and its data.
type SVMCall struct {
	Program  string
	Accounts []SVMMeta
	Data     []byte
}

// SVMMeta is one account of an SVMCall.
type SVMMeta struct {
	Address  string
	Signer   bool
	Writable bool
}
