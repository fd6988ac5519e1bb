package raydium

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// What a quote reads: every account a swap quote between two mints needs, known before any read,
// so that one getMultipleAccounts answers it.
//
// A CPMM pool created through Raydium's SDK or UI sits at PoolAddress(config, mint0, mint1), mint0
// the lower key, and its vaults at VaultAddress(pool, mint): for a pair and the fee tiers to
// consider, every candidate pool and its vaults derive offline. A pool created at a keypair's
// address (initialize allows it) is not found this way; an indexer knows those.

// ClockSysvar is the Clock sysvar's address: its unix_timestamp is what CPMM compares a pool's
// OpenTime with, its epoch what Token-2022 picks a transfer fee schedule by.
var ClockSysvar = MustPubkey("SysvarC1ock11111111111111111111111111111111")

// MaxMultipleAccounts is how many keys one getMultipleAccounts takes (Agave's
// MAX_MULTIPLE_ACCOUNTS); more are refused with an invalid-params error.
const MaxMultipleAccounts = 100

// Sizes of the accounts a quote decodes.
const (
	// ClockSize is the Clock sysvar's data: slot, epoch_start_timestamp, epoch,
	// leader_schedule_epoch, unix_timestamp.
	ClockSize = 40
	// mintSize is an SPL Token mint (and a Token-2022 mint's base); tokenAccountSize an SPL Token
	// account (and a Token-2022 account's base). A Token-2022 mint with extensions pads its base
	// to tokenAccountSize, then has its account type and its extensions.
	mintSize         = 82
	tokenAccountSize = 165
	multisigSize     = 355 // a Token-2022 mint is never this long: it would read as a multisig
	// accountTypeMint is the Token-2022 account type byte of a mint, at tokenAccountSize.
	accountTypeMint = 1
	// extTransferFeeConfig is the TransferFeeConfig extension's type, transferFeeConfigSize its
	// value's: two optional authorities, the withheld amount, the older and the newer schedule.
	extTransferFeeConfig  = 1
	transferFeeConfigSize = 32 + 32 + 8 + 2*(8+8+2)
)

// ErrSameMint is returned by PlanQuote when the input and output mints are the same
// (400 invalid_request where a caller passes it on).
var ErrSameMint = errors.New("raydium: the input and output mints are the same")

// Base58 owners the decoder compares with chain.SVMAccount.Owner.
var (
	cpmmOwner      = ProgramID.String()
	tokenOwner     = TokenProgram.String()
	token2022Owner = Token2022Program.String()
)

// QuoteCandidate is a pool a quote may trade through: the pool PoolAddress derives for Config and
// the pair (Mint0 the lower key), and its vaults. It may not exist.
type QuoteCandidate struct {
	Pool, Config, Mint0, Mint1, Vault0, Vault1 Pubkey
}

// QuotePlan lists the accounts an exact-input quote from Input to Output reads: the direct pools
// of the pair and, for each middle mint, the pools of Input and the middle and of the middle and
// Output (the candidates of BestRoute), under each config. It is immutable once planned and
// depends only on PlanQuote's arguments: a caller may keep and share it.
//
// Keys are read in this order, which Snapshots expects:
//
//	ClockSysvar
//	each of Configs
//	each of Mints (Input, Output, then the middle mints)
//	each of Candidates: the pool, its vault 0, its vault 1
//
// With m middle mints (neither Input nor Output) and c configs that is 1 + c + (2+m) +
// 3·c·(1+2m) keys: with WSOL and USDC as middles, 5 + 16c, so 69 for the local validator's 4
// configs; 4 + 10c when Input or Output is one of them. Past MaxMultipleAccounts (two middles and
// 6 configs) the keys need several calls: see Batches.
type QuotePlan struct {
	Input, Output Pubkey
	// Mids are the middle mints kept: distinct, neither Input nor Output, in the order given.
	Mids []Pubkey
	// Configs are the AmmConfig addresses, distinct, in the order given.
	Configs []Pubkey
	// Mints are Input, Output and Mids.
	Mints      []Pubkey
	Candidates []QuoteCandidate
	// Keys are the accounts to read, Addresses the same in base58 (chain.SVMAccount's form).
	Keys      []Pubkey
	Addresses []string
}

// PlanQuote plans the reads of a quote from input to output through the pools of configs (the
// AmmConfig addresses to consider: mainnet has several fee tiers, the local validator the ones in
// localnet.Node.AmmConfigs), directly or through one of mids (such as WSOL and USDC); a middle
// that is input or output, or given twice, is dropped, as is a repeated config. It derives every
// address offline: three program addresses per candidate, 60 for a typical plan (about 0.75 ms
// of CPU), so a caller quoting a pair often keeps its plan. Errors: ErrSameMint.
func PlanQuote(input, output Pubkey, mids, configs []Pubkey) (*QuotePlan, error) {
	if input == output {
		return nil, fmt.Errorf("plan quote: %w: %s", ErrSameMint, input)
	}
	p := &QuotePlan{Input: input, Output: output}
	seen := map[Pubkey]bool{input: true, output: true}
	for _, m := range mids {
		if !seen[m] {
			seen[m] = true
			p.Mids = append(p.Mids, m)
		}
	}
	clear(seen)
	for _, c := range configs {
		if !seen[c] {
			seen[c] = true
			p.Configs = append(p.Configs, c)
		}
	}
	p.Mints = append([]Pubkey{input, output}, p.Mids...)

	pairs := [][2]Pubkey{{input, output}}
	for _, m := range p.Mids {
		pairs = append(pairs, [2]Pubkey{input, m}, [2]Pubkey{m, output})
	}
	p.Keys = append(append(append(make([]Pubkey, 0, 1+len(p.Configs)+len(p.Mints)+3*len(pairs)*len(p.Configs)),
		ClockSysvar), p.Configs...), p.Mints...)
	for _, pair := range pairs {
		m0, m1 := pair[0], pair[1]
		if m1.Less(m0) {
			m0, m1 = m1, m0
		}
		for _, c := range p.Configs {
			pool := PoolAddress(c, m0, m1)
			k := QuoteCandidate{Pool: pool, Config: c, Mint0: m0, Mint1: m1, Vault0: VaultAddress(pool, m0), Vault1: VaultAddress(pool, m1)}
			p.Candidates = append(p.Candidates, k)
			p.Keys = append(p.Keys, k.Pool, k.Vault0, k.Vault1)
		}
	}
	p.Addresses = make([]string, len(p.Keys))
	for i, k := range p.Keys {
		p.Addresses[i] = k.String()
	}
	return p, nil
}

// shared is how many keys lead Keys before the candidates: the Clock, the configs, the mints.
func (p *QuotePlan) shared() int { return 1 + len(p.Configs) + len(p.Mints) }

// Batches splits Keys into getMultipleAccounts calls of at most MaxMultipleAccounts keys, as
// [start, end) ranges of Keys (and Addresses): one range when they fit, as a typical quote's do.
// Beyond, a candidate's pool and vaults are never split, so each pool's balances are still of one
// slot (the Clock, configs and mints lead the first call), but the calls may answer at different
// slots: read them at one commitment with the later
// calls' minContextSlot set to the first's slot, and know that the pools of a two-hop route may
// then be of different slots (the swap's slippage limits bound what that costs).
func (p *QuotePlan) Batches() [][2]int {
	var out [][2]int
	start := 0
	for p.shared()-start > MaxMultipleAccounts { // the shared keys alone pass the limit
		out = append(out, [2]int{start, start + MaxMultipleAccounts})
		start += MaxMultipleAccounts
	}
	end := p.shared()
	for ; end < len(p.Keys); end += 3 {
		if end+3-start > MaxMultipleAccounts { // the next candidate starts the next call
			out = append(out, [2]int{start, end})
			start = end
		}
	}
	return append(out, [2]int{start, end})
}

// Clock is the Clock sysvar.
type Clock struct {
	Slot                uint64
	EpochStartTimestamp int64
	Epoch               uint64
	LeaderScheduleEpoch uint64
	UnixTimestamp       int64
}

// DecodeClock decodes the Clock sysvar's data. Errors wrap ErrLayout.
func DecodeClock(data []byte) (Clock, error) {
	if len(data) < ClockSize {
		return Clock{}, fmt.Errorf("%w: Clock of %d bytes, want %d", ErrLayout, len(data), ClockSize)
	}
	r := &reader{b: data}
	return Clock{Slot: r.u64(), EpochStartTimestamp: int64(r.u64()), Epoch: r.u64(), LeaderScheduleEpoch: r.u64(),
		UnixTimestamp: int64(r.u64())}, nil
}

// MintTransferFee is the transfer fee a mint charges at epoch, given the mint account's owner and
// data: nil for an SPL Token mint and for a Token-2022 mint without the TransferFeeConfig
// extension; else the extension's newer schedule from its epoch on, the older before (Token-2022's
// get_epoch_fee, what CPMM's get_transfer_fee asks at the Clock's epoch). Errors wrap ErrLayout:
// an owner that is neither token program, a length no mint of the program has, a mint not
// initialized, a Token-2022 account that is not a mint or whose extensions run past its data.
func MintTransferFee(owner Pubkey, data []byte, epoch uint64) (*svm.FeeSchedule, error) {
	switch {
	case owner != TokenProgram && owner != Token2022Program:
		return nil, fmt.Errorf("%w: a mint owned by %s, not a token program", ErrLayout, owner)
	case len(data) == mintSize:
	case owner == Token2022Program && len(data) > tokenAccountSize && len(data) != multisigSize:
		if data[tokenAccountSize] != accountTypeMint {
			return nil, fmt.Errorf("%w: Token-2022 account type %d, not a mint", ErrLayout, data[tokenAccountSize])
		}
	default:
		return nil, fmt.Errorf("%w: %d bytes is not a mint of %s", ErrLayout, len(data), owner)
	}
	if data[45] != 1 { // is_initialized, after mint_authority (36), supply (8), decimals (1)
		return nil, fmt.Errorf("%w: mint not initialized", ErrLayout)
	}
	if len(data) == mintSize {
		return nil, nil
	}
	for tlv := data[tokenAccountSize+1:]; len(tlv) >= 2; {
		typ := binary.LittleEndian.Uint16(tlv)
		if typ == 0 { // Uninitialized: the zero fill after the last extension
			break
		}
		if len(tlv) < 4 {
			return nil, fmt.Errorf("%w: mint extension %d has no length", ErrLayout, typ)
		}
		n := int(binary.LittleEndian.Uint16(tlv[2:]))
		if len(tlv)-4 < n {
			return nil, fmt.Errorf("%w: mint extension %d of %d bytes runs past the data", ErrLayout, typ, n)
		}
		if typ == extTransferFeeConfig {
			if n < transferFeeConfigSize {
				return nil, fmt.Errorf("%w: TransferFeeConfig of %d bytes, want %d", ErrLayout, n, transferFeeConfigSize)
			}
			r := &reader{b: tlv[4:], off: 32 + 32 + 8} // after the two authorities and the withheld amount
			older := svm.FeeSchedule{Epoch: r.u64(), MaximumFee: r.u64(), BasisPoints: r.u16()}
			newer := svm.FeeSchedule{Epoch: r.u64(), MaximumFee: r.u64(), BasisPoints: r.u16()}
			if epoch >= newer.Epoch {
				return &newer, nil
			}
			return &older, nil
		}
		tlv = tlv[4+n:]
	}
	return nil, nil
}

// Snapshots decodes the accounts read for the plan (Keys' accounts in Keys' order, as
// getMultipleAccounts answers them; the batches' answers concatenated) into the snapshots of the
// candidate pools that exist, in Candidates' order, ready for BestRoute. A candidate is left out
// when its pool account is missing, not the program's, not a PoolState or not the plan's (its
// config, mints, vaults or token programs differ), when a vault is missing or is not a token account of its mint
// under the pool's token program, or when its config or a mint is missing or does not decode.
// Every snapshot's Now is the Clock's unix_timestamp (as the program casts it) and its transfer
// fees are the ones in force at the Clock's epoch: a quote for a transaction that lands in a later
// epoch may see a fee change the Clock did not show yet. The slot is the caller's: the read's
// context slot.
//
// Errors wrap chain.ErrUpstreamBadResponse (502 upstream_error): accounts are not the plan's keys
// (count or addresses), or the Clock is missing or does not decode.
func (p *QuotePlan) Snapshots(accounts []chain.SVMAccount) ([]PoolSnapshot, error) {
	if len(accounts) != len(p.Keys) {
		return nil, fmt.Errorf("raydium: quote accounts: %w: %d accounts for %d keys", chain.ErrUpstreamBadResponse, len(accounts), len(p.Keys))
	}
	for i, a := range accounts {
		if a.Address != p.Addresses[i] {
			return nil, fmt.Errorf("raydium: quote accounts: %w: account %d is %q, want %s", chain.ErrUpstreamBadResponse, i, a.Address, p.Addresses[i])
		}
	}
	if !accounts[0].Exists {
		return nil, fmt.Errorf("raydium: quote accounts: %w: no Clock sysvar", chain.ErrUpstreamBadResponse)
	}
	clock, err := DecodeClock(accounts[0].Data)
	if err != nil {
		return nil, fmt.Errorf("raydium: quote accounts: %w: %w", chain.ErrUpstreamBadResponse, err)
	}
	at := 1
	configs := make(map[Pubkey]*AmmConfig, len(p.Configs))
	for _, k := range p.Configs {
		a := accounts[at]
		at++
		if !a.Exists || a.Owner != cpmmOwner {
			continue
		}
		if c, err := DecodeAmmConfig(a.Data); err == nil {
			configs[k] = &c
		}
	}
	type mint struct {
		program Pubkey // its owner: the token program a pool of it moves it with
		owner   string // the same, as chain.SVMAccount spells it
		fee     *svm.FeeSchedule
	}
	mints := make(map[Pubkey]mint, len(p.Mints))
	for _, k := range p.Mints {
		a := accounts[at]
		at++
		if !a.Exists {
			continue
		}
		program := TokenProgram
		if a.Owner == token2022Owner {
			program = Token2022Program
		} else if a.Owner != tokenOwner {
			continue
		}
		if fee, err := MintTransferFee(program, a.Data, clock.Epoch); err == nil {
			mints[k] = mint{program: program, owner: a.Owner, fee: fee}
		}
	}
	var out []PoolSnapshot
	for _, k := range p.Candidates {
		pool, v0, v1 := accounts[at], accounts[at+1], accounts[at+2]
		at += 3
		config, ok := configs[k.Config]
		m0, ok0 := mints[k.Mint0]
		m1, ok1 := mints[k.Mint1]
		if !ok || !ok0 || !ok1 || !pool.Exists || pool.Owner != cpmmOwner {
			continue
		}
		s, err := DecodePoolState(pool.Data)
		if err != nil || s.AmmConfig != k.Config || s.Token0Mint != k.Mint0 || s.Token1Mint != k.Mint1 ||
			s.Token0Vault != k.Vault0 || s.Token1Vault != k.Vault1 || s.Token0Program != m0.program || s.Token1Program != m1.program {
			continue
		}
		amount0, ok0 := vaultAmount(v0, k.Mint0, m0.owner)
		amount1, ok1 := vaultAmount(v1, k.Mint1, m1.owner)
		if !ok0 || !ok1 {
			continue
		}
		out = append(out, PoolSnapshot{Address: k.Pool, Snapshot: Snapshot{Pool: s, Config: *config, Vault0: amount0, Vault1: amount1,
			TransferFee0: m0.fee, TransferFee1: m1.fee, Now: uint64(clock.UnixTimestamp)}})
	}
	return out, nil
}

// vaultAmount is a vault's token amount (an SPL Token or Token-2022 account's, at offset 64); ok
// is false when the account is missing, not owned by the mint's token program (the program the
// pool moves it with), too short for a token account, or of another mint.
func vaultAmount(a chain.SVMAccount, mint Pubkey, program string) (uint64, bool) {
	if a.Owner != program || len(a.Data) < tokenAccountSize || Pubkey(a.Data[:32]) != mint {
		return 0, false
	}
	return TokenBalance(a)
}
