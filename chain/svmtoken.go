package chain

import (
	"math/big"

	"github.com/partner-platform/partnerd/chain/svm"
)

// What a Solana (SVM) adapter reads of a token: a mint (SPL Token or Token-2022) with its
// Token-2022 extensions and metadata, and its largest holders, as plain values (no Solana SDK
// here). chain/solana fills them; the services read them. Addresses are base58, exactly as the
// chain spells them. Amounts are base units.

// SVMMint is what the chain says about a token mint (SPL Token or Token-2022).
type SVMMint struct {
	Address string
	// Found reports whether Address is an initialized mint of SPL Token or Token-2022. When false,
	// every other field but Address is zero.
	Found bool
	// Program is the mint's token program: SPL Token's or Token-2022's id.
	Program  string
	Decimals int
	Supply   *big.Int // base units
	// MintAuthority may mint more; empty: the supply is fixed.
	MintAuthority string
	// FreezeAuthority may freeze any account of the mint; empty: nobody.
	FreezeAuthority string
	// Extensions are the mint's Token-2022 extensions (none on SPL Token).
	Extensions SVMMintExtensions
	// TransferFee is the Token-2022 transfer fee in force at Epoch; nil without the extension.
	TransferFee *svm.FeeSchedule
	// Epoch is the cluster's epoch when the mint was read.
	Epoch uint64
	// Metadata is the token's name, symbol and URI: the mint's own TokenMetadata extension when
	// its metadata pointer names the mint (or is absent), otherwise the Metaplex metadata account;
	// nil when neither exists (metadata kept in a third account a pointer names is not read: see
	// SVMMintExtensions.MetadataPointer).
	Metadata *SVMMintMetadata
	// Slot is the slot the mint was read at.
	Slot uint64
}

// NameSymbol is the mint's name and symbol: its metadata's, or "Wrapped SOL", "WSOL" for wrapped
// SOL without metadata (it has none on some clusters). ok is false (and both are empty) otherwise.
func (m SVMMint) NameSymbol() (name, symbol string, ok bool) {
	switch {
	case m.Metadata != nil:
		return m.Metadata.Name, m.Metadata.Symbol, true
	case m.Address == WrappedSOL:
		return "Wrapped SOL", "WSOL", true
	}
	return "", "", false
}

// SVMMintMetadata is a token's name, symbol and URI, and where they were read.
type SVMMintMetadata struct {
	Name   string
	Symbol string
	URI    string
	// Source is "token-2022" (the mint's TokenMetadata extension) or "metaplex" (the Metaplex
	// Token Metadata account of the mint).
	Source string
	// UpdateAuthority may change the metadata; empty: nobody.
	UpdateAuthority string
	// Mutable reports whether the metadata can still change (Metaplex: is_mutable; Token-2022: an
	// update authority is set).
	Mutable bool
}

// SVMMintExtensions are a Token-2022 mint's extensions. Types lists every extension present, by
// the program's names, in account order (unknown ones as "ExtensionType(N)"); the fields below
// hold the ones the adapter decodes. Others (confidential transfers, groups, scaled UI amounts)
// are recognised by type only.
type SVMMintExtensions struct {
	Types               []string
	TransferFee         *SVMTransferFeeConfig
	MintCloseAuthority  string
	PermanentDelegate   string // may transfer or burn from any account of the mint
	TransferHook        *SVMTransferHook
	MetadataPointer     *SVMPointer
	TokenMetadata       *SVMTokenMetadata
	NonTransferable     bool
	DefaultAccountState string // "initialized" or "frozen" for new accounts; empty without the extension
	InterestBearing     *SVMInterestBearing
	Pausable            *SVMPausable
}

// Has reports whether the extension named name (as in Types) is present.
func (e SVMMintExtensions) Has(name string) bool {
	for _, t := range e.Types {
		if t == name {
			return true
		}
	}
	return false
}

// SVMTransferFeeConfig is a mint's Token-2022 TransferFeeConfig extension.
type SVMTransferFeeConfig struct {
	ConfigAuthority   string // may change the fee; empty: nobody
	WithdrawAuthority string // may withdraw withheld fees; empty: nobody
	WithheldAmount    uint64 // fees harvested to the mint, not yet withdrawn
	Older, Newer      svm.FeeSchedule
}

// At returns the fee in force at epoch: the newer schedule from its epoch on, the older before.
func (c SVMTransferFeeConfig) At(epoch uint64) svm.FeeSchedule {
	if epoch >= c.Newer.Epoch {
		return c.Newer
	}
	return c.Older
}

// SVMTransferHook is a mint's TransferHook extension: every transfer calls Program (when set).
type SVMTransferHook struct {
	Authority string
	Program   string // empty: no hook program
}

// SVMPointer is a MetadataPointer or GroupPointer extension.
type SVMPointer struct {
	Authority string
	Address   string
}

// SVMInterestBearing is a mint's InterestBearingConfig extension: UI amounts accrue interest at
// CurrentRate basis points a year (base-unit balances do not change).
type SVMInterestBearing struct {
	RateAuthority        string
	InitTimestamp        int64
	PreUpdateAverageRate int16
	LastUpdateTimestamp  int64
	CurrentRate          int16
}

// SVMPausable is a mint's Pausable extension: while Paused, transfers, mints and burns fail.
type SVMPausable struct {
	Authority string
	Paused    bool
}

// SVMTokenMetadata is a mint's Token-2022 TokenMetadata extension.
type SVMTokenMetadata struct {
	UpdateAuthority string // empty: immutable
	Mint            string
	Name            string
	Symbol          string
	URI             string
	Additional      [][2]string // key, value pairs
}

// SVMHolder is one owner of a token: the sum of its token accounts of the mint.
type SVMHolder struct {
	Owner    string
	Amount   *big.Int // base units
	Accounts int      // token accounts summed
}

// SVMHolderList is a mint's largest holders.
type SVMHolderList struct {
	// Mint is the mint as read with the holders; when Found is false the list is empty.
	Mint SVMMint
	// Holders are owners (not token accounts) with a positive balance, largest first (ties by
	// owner), at most the limit asked.
	Holders []SVMHolder
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
func (l SVMHolderList) Top10SharePpm() int64 {
	if l.Top10 == nil || l.Mint.Supply == nil || l.Mint.Supply.Sign() == 0 {
		return 0
	}
	n := new(big.Int).Mul(l.Top10, big.NewInt(1_000_000))
	return n.Quo(n, l.Mint.Supply).Int64()
}

// SVMHoldersOptions tunes a read of a mint's largest holders.
type SVMHoldersOptions struct {
	// Limit is the most holders returned; default 20.
	Limit int
	// LargestOnly skips the scan of every token account and reads only the largest accounts
	// (for mints with millions of accounts, which providers refuse or take long to scan).
	LargestOnly bool
}
