package chain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Config is the chains a deployment serves, read from the file named by PARTNER_CHAINS (JSON).
//
// ParseConfig fills every default (see ChainConfig) before validating, so a parsed Config is
// complete: Validate checks a Config as it stands and accepts only complete ones.
type Config struct {
	Chains map[string]ChainConfig `json:"chains"` // key: a supported chain name (Supported)
}

// ChainConfig is one chain of the deployment. Defaults, filled by ParseConfig when a field is absent:
//   - network: mainnet.
//   - chainId: the supported chain's id on mainnet (and it must equal it); required on an EVM devnet;
//     always 0 on Solana.
//   - confirmations: the finality depth below which blocks are treated as reorg-able; see
//     DefaultConfirmations. An explicit 0 is kept.
//   - multicall3: the canonical Multicall3 deployment on EVM chains; empty on Solana.
//   - wrappedNative: required on EVM chains; on Solana, the wrapped SOL mint.
type ChainConfig struct {
	RPCURLs        []string               `json:"rpcUrls"`        // at least one, http(s) or ws(s) (ws(s) only alone); reads fail over between several
	ChainID        int64                  `json:"chainId"`        // see the defaults above
	Network        Network                `json:"network"`        // mainnet or devnet
	WrappedNative  string                 `json:"wrappedNative"`  // address of the wrapped native token
	USDStablecoins []Stablecoin           `json:"usdStablecoins"` // at least one: the USD price reference
	Confirmations  int                    `json:"confirmations"`  // 0..1000
	StartBlock     uint64                 `json:"startBlock"`     // first block (slot on Solana) the indexer reads
	Multicall3     string                 `json:"multicall3"`     // EVM only
	Venues         map[string]VenueConfig `json:"venues"`         // key: a venue of the chain's family (Venues)
}

// VenueConfig locates one venue on a chain.
//
//   - uniswap-v2: factory and router required; feeBps is the pair swap fee (default 30; 25 on
//     PancakeSwap V2); initCodeHash (0x + 64 hex) lets pair addresses be derived offline
//     (UniswapV2PairAddress): swaps and liquidity need it, and it defaults to the official
//     deployment's when factory is one (KnownUniswapV2Factories), as feeBps does; stakingRewardsFactory (optional) is the venue's liquidity-mining
//     StakingRewardsFactory (Uniswap's liquidity-staker), whose StakingRewards farms stake the
//     venue's LP tokens.
//   - uniswap-v3: factory and quoter required, router optional; feeBps must be 0 because the fee is
//     per pool; initCodeHash optional as for V2; tickLens (optional) is the chain's TickLens, through
//     which pool reads (quotes, bins) read initialized ticks; positionManager (optional) is the
//     NonfungiblePositionManager whose NFTs are the venue's positions; staker (optional) is the
//     UniswapV3Staker that farms those positions, and stakerStartBlock (optional, with staker) the
//     block it was deployed at: the staker's incentives are found in its IncentiveCreated logs,
//     read from that block (0: from genesis, a range public RPC providers often refuse); migrator
//     (optional) is the V3Migrator that moves uniswap-v2 LP into positions; stakingRewardsFactory
//     does not apply and must be empty. tickLens, positionManager, staker, stakerStartBlock and
//     migrator apply to uniswap-v3 only.
//   - Solana venues (raydium, orca, meteora, pumpswap): factory is the venue's program id and is
//     required; router, quoter, feeBps, initCodeHash and stakingRewardsFactory do not apply and must
//     be empty.
type VenueConfig struct {
	Factory               string `json:"factory"`
	Router                string `json:"router,omitempty"`
	Quoter                string `json:"quoter,omitempty"`
	TickLens              string `json:"tickLens,omitempty"`
	PositionManager       string `json:"positionManager,omitempty"`
	Staker                string `json:"staker,omitempty"`
	StakerStartBlock      uint64 `json:"stakerStartBlock,omitempty"`
	Migrator              string `json:"migrator,omitempty"`
	FeeBps                int    `json:"feeBps"`
	InitCodeHash          string `json:"initCodeHash,omitempty"`
	StakingRewardsFactory string `json:"stakingRewardsFactory,omitempty"`
}

// Stablecoin is a USD reference token. Decimals is required: a wrong value skews every price.
type Stablecoin struct {
	Address  string `json:"address"`
	Decimals int    `json:"decimals"`
}

// CanonicalMulticall3 is the address Multicall3 has on every chain it was deployed to with the keyless method.
const CanonicalMulticall3 = "0xcA11bde05977b3631167028862bE2a173976CA11"

// WrappedSOL is the mint of wrapped SOL, the default wrappedNative of the solana entry.
const WrappedSOL = "So11111111111111111111111111111111111111112"

// DefaultUniswapV2FeeBps is the swap fee of a Uniswap V2 pair.
const DefaultUniswapV2FeeBps = 30

// Limits.
const (
	MaxConfirmations = 1000
	maxRPCURLs       = 16
	maxDecimals      = 36
	maxFeeBps        = 9999
)

// ErrInvalidConfig is wrapped by every validation error of a chain configuration.
var ErrInvalidConfig = errors.New("invalid chain config")

// FieldError is one problem of a chain configuration at a JSON path such as
// chains.base.venues.uniswap-v2.factory. It never carries an RPC URL.
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string { return e.Path + ": " + e.Msg }

// Unwrap lets errors.Is(err, ErrInvalidConfig) hold.
func (e *FieldError) Unwrap() error { return ErrInvalidConfig }

// DefaultConfirmations is the finality depth used when a chain's entry gives none. Devnets default
// to 0: they only reorg when a test makes them, and such a test sets the depth it needs.
//
//   - ethereum 12: about 2.4 minutes; probabilistic safety well before the 64-block finalized checkpoint.
//   - base 10, robinhood 10: rollup sequencers rarely reorg their unsafe head; 10 blocks is 20 s on Base.
//   - bsc 15: a common exchange depth; BSC's fast finality usually finalizes within 2–3 blocks.
//   - arc 1: Arc's BFT consensus gives deterministic finality per block; 1 keeps a one-block margin.
//   - solana 32: the depth at which a slot reaches `finalized` commitment.
func DefaultConfirmations(name string, network Network) int {
	if network == Devnet {
		return 0
	}
	switch name {
	case "ethereum":
		return 12
	case "base", "robinhood":
		return 10
	case "bsc":
		return 15
	case "arc":
		return 1
	case "solana":
		return 32
	}
	return 0
}

// LoadConfig reads, defaults and validates the chain configuration at path.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("load chain config: %w", err)
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("load chain config %s: %w", path, err)
	}
	return cfg, nil
}

// file is the shape of the JSON document: pointers tell an absent field from an explicit zero.
type (
	fileConfig struct {
		Chains map[string]fileChain `json:"chains"`
	}
	fileChain struct {
		RPCURLs        []string             `json:"rpcUrls"`
		ChainID        *int64               `json:"chainId"`
		Network        Network              `json:"network"`
		WrappedNative  string               `json:"wrappedNative"`
		USDStablecoins []fileStablecoin     `json:"usdStablecoins"`
		Confirmations  *int                 `json:"confirmations"`
		StartBlock     uint64               `json:"startBlock"`
		Multicall3     string               `json:"multicall3"`
		Venues         map[string]fileVenue `json:"venues"`
	}
	fileVenue struct {
		Factory               string `json:"factory"`
		Router                string `json:"router"`
		Quoter                string `json:"quoter"`
		TickLens              string `json:"tickLens"`
		PositionManager       string `json:"positionManager"`
		Staker                string `json:"staker"`
		StakerStartBlock      uint64 `json:"stakerStartBlock"`
		Migrator              string `json:"migrator"`
		FeeBps                *int   `json:"feeBps"`
		InitCodeHash          string `json:"initCodeHash"`
		StakingRewardsFactory string `json:"stakingRewardsFactory"`
	}
	fileStablecoin struct {
		Address  string `json:"address"`
		Decimals *int   `json:"decimals"`
	}
)

// ParseConfig parses a JSON chain configuration, fills defaults and validates it. Unknown fields,
// duplicate keys, wrong types and trailing data are rejected; every error names its JSON path.
func ParseConfig(data []byte) (Config, error) {
	if err := checkShape(data); err != nil {
		return Config{}, err
	}
	var f fileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		// checkShape accepts only documents that decode; keep a path-less fallback regardless.
		return Config{}, &FieldError{Path: "$", Msg: err.Error()}
	}
	var errs []error
	cfg := Config{Chains: make(map[string]ChainConfig, len(f.Chains))}
	for name, fc := range f.Chains {
		info, _ := Lookup(name) // an unsupported name is reported by Validate
		c := ChainConfig{
			RPCURLs:       fc.RPCURLs,
			Network:       fc.Network,
			WrappedNative: fc.WrappedNative,
			StartBlock:    fc.StartBlock,
			Multicall3:    fc.Multicall3,
		}
		if c.Network == "" {
			c.Network = Mainnet
		}
		switch {
		case fc.ChainID != nil:
			c.ChainID = *fc.ChainID
		case c.Network == Mainnet:
			c.ChainID = info.ChainID
		}
		if fc.Confirmations != nil {
			c.Confirmations = *fc.Confirmations
		} else {
			c.Confirmations = DefaultConfirmations(name, c.Network)
		}
		if c.Multicall3 == "" && info.Kind == KindEVM {
			c.Multicall3 = CanonicalMulticall3
		}
		if c.WrappedNative == "" && info.Kind == KindSolana {
			c.WrappedNative = WrappedSOL
		}
		for i, s := range fc.USDStablecoins {
			if s.Decimals == nil {
				errs = append(errs, &FieldError{Path: fmt.Sprintf("%s.usdStablecoins[%d].decimals", chainPath(name), i), Msg: "required"})
				continue
			}
			c.USDStablecoins = append(c.USDStablecoins, Stablecoin{Address: s.Address, Decimals: *s.Decimals})
		}
		if fc.Venues != nil {
			c.Venues = make(map[string]VenueConfig, len(fc.Venues))
		}
		for venue, fv := range fc.Venues {
			v := VenueConfig{Factory: fv.Factory, Router: fv.Router, Quoter: fv.Quoter, TickLens: fv.TickLens,
				PositionManager: fv.PositionManager, Staker: fv.Staker, StakerStartBlock: fv.StakerStartBlock, Migrator: fv.Migrator, InitCodeHash: fv.InitCodeHash,
				StakingRewardsFactory: fv.StakingRewardsFactory}
			known, isKnown := knownUniswapV2(name, fv.Factory)
			isKnown = isKnown && venue == "uniswap-v2"
			switch {
			case fv.FeeBps != nil:
				v.FeeBps = *fv.FeeBps
			case isKnown:
				v.FeeBps = known.FeeBps
			case venue == "uniswap-v2":
				v.FeeBps = DefaultUniswapV2FeeBps
			}
			if v.InitCodeHash == "" && isKnown {
				v.InitCodeHash = known.InitCodeHash
			}
			c.Venues[venue] = v
		}
		cfg.Chains[name] = c
	}
	if len(errs) > 0 {
		sortErrors(errs)
		return Config{}, errors.Join(errs...)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// Validate checks a complete configuration and returns every problem found, joined, in a stable
// order (chains in the contract's order), each a *FieldError wrapping ErrInvalidConfig.
func (c Config) Validate() error {
	var errs []error
	add := func(path, format string, args ...any) {
		errs = append(errs, &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)})
	}
	if len(c.Chains) == 0 {
		add("chains", "at least one chain is required")
	}
	for name, cc := range c.Chains {
		info, ok := Lookup(name)
		if !ok {
			add(chainPath(name), "unsupported chain (want one of %s)", supportedNames())
			continue
		}
		cc.validate(info, chainPath(name), add)
	}
	if len(errs) == 0 {
		return nil
	}
	sortErrors(errs)
	return errors.Join(errs...)
}

func (cc ChainConfig) validate(info Info, p string, add func(path, format string, args ...any)) {
	evm := info.Kind == KindEVM
	isAddr, addrWant := IsEVMAddress, "not an EVM address (want 0x followed by 40 hex digits)"
	if !evm {
		isAddr, addrWant = IsSolanaAddress, "not a Solana address (want base58 of 32 bytes)"
	}
	checkAddr := func(path, v string, required bool) {
		switch {
		case v == "":
			if required {
				add(path, "required")
			}
		case !isAddr(v):
			add(path, "%s", addrWant)
		case evm && CheckEVMAddress(v) != nil:
			add(path, "checksum mismatch: %s", ChecksumAdvice)
		case evm && isZeroEVM(v):
			add(path, "the zero address")
		}
	}

	// rpcUrls: never echo a URL, it may carry credentials.
	switch {
	case len(cc.RPCURLs) == 0:
		add(p+".rpcUrls", "at least one URL is required")
	case len(cc.RPCURLs) > maxRPCURLs:
		add(p+".rpcUrls", "at most %d URLs", maxRPCURLs)
	}
	seenURL := map[string]int{}
	for i, raw := range cc.RPCURLs {
		path := fmt.Sprintf("%s.rpcUrls[%d]", p, i)
		u, err := url.Parse(raw)
		switch {
		case raw == "":
			add(path, "empty URL")
			continue
		case err != nil:
			add(path, "not a valid URL")
			continue
		}
		switch scheme := strings.ToLower(u.Scheme); {
		case scheme != "http" && scheme != "https" && scheme != "ws" && scheme != "wss":
			add(path, "scheme must be http, https, ws or wss")
			continue
		case len(cc.RPCURLs) > 1 && (scheme == "ws" || scheme == "wss"):
			add(path, "a ws or wss URL must be the chain's only one (failover between URLs is over http or https)")
			continue
		}
		if u.Host == "" || u.Hostname() == "" {
			add(path, "URL has no host")
			continue
		}
		if port := u.Port(); port != "" {
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				add(path, "invalid port")
				continue
			}
		}
		key := normalizeURL(u)
		if j, dup := seenURL[key]; dup {
			add(path, "duplicate of rpcUrls[%d]", j)
			continue
		}
		seenURL[key] = i
	}

	switch cc.Network {
	case Mainnet:
		if cc.ChainID != info.ChainID {
			add(p+".chainId", "must be %d on %s mainnet", info.ChainID, info.Name)
		}
	case Devnet:
		switch {
		case !evm && cc.ChainID != 0:
			add(p+".chainId", "must be absent or 0 on Solana")
		case evm && cc.ChainID <= 0:
			add(p+".chainId", "a positive chain id is required on a devnet")
		}
	default:
		add(p+".network", "want mainnet or devnet")
	}

	checkAddr(p+".wrappedNative", cc.WrappedNative, true)

	if len(cc.USDStablecoins) == 0 {
		add(p+".usdStablecoins", "at least one stablecoin is required")
	}
	seenToken := map[string]int{}
	for i, s := range cc.USDStablecoins {
		sp := fmt.Sprintf("%s.usdStablecoins[%d]", p, i)
		checkAddr(sp+".address", s.Address, true)
		if s.Address != "" {
			key := addrKey(evm, s.Address)
			if j, dup := seenToken[key]; dup {
				add(sp+".address", "duplicate of usdStablecoins[%d]", j)
			} else {
				seenToken[key] = i
			}
			if cc.WrappedNative != "" && key == addrKey(evm, cc.WrappedNative) {
				add(sp+".address", "same as wrappedNative")
			}
		}
		switch {
		case s.Decimals < 0 || s.Decimals > maxDecimals:
			add(sp+".decimals", "want 0 to %d", maxDecimals)
		case info.Name == "arc" && s.Decimals == 18:
			// Arc pays gas in native USDC accounted with 18 decimals, while the USDC ERC-20 interface
			// (the token pools hold and Transfer logs move) has 6. Pricing ERC-20 amounts with 18
			// decimals would understate every USD value by 10^12.
			add(sp+".decimals", "18 is the decimals of Arc's native gas USDC; the ERC-20 USDC has 6")
		}
	}

	if cc.Confirmations < 0 || cc.Confirmations > MaxConfirmations {
		add(p+".confirmations", "want 0 to %d", MaxConfirmations)
	}

	if evm {
		checkAddr(p+".multicall3", cc.Multicall3, true)
	} else if cc.Multicall3 != "" {
		add(p+".multicall3", "not used on Solana")
	}

	factories := map[string]string{}
	for _, venue := range Venues { // the contract's order, for stable duplicate reports
		v, ok := cc.Venues[venue]
		if !ok {
			continue
		}
		vp := p + ".venues." + venue
		v.validate(venue, vp, evm, checkAddr, add)
		if v.Factory != "" {
			key := addrKey(evm, v.Factory)
			if other, dup := factories[key]; dup {
				add(vp+".factory", "same as venues.%s.factory", other)
			}
			factories[key] = venue
		}
	}
	for venue := range cc.Venues {
		if !slices.Contains(Venues, venue) {
			add(p+".venues."+keyPath(venue), "unknown venue (want one of %s)", strings.Join(Venues, ", "))
			continue
		}
		if spec, _ := LookupVenue(venue); spec.Family != info.Kind {
			add(p+".venues."+venue, "not a venue of %s (want one of %s)", info.Name, strings.Join(familyVenues(info.Kind), ", "))
		}
	}
}

func (v VenueConfig) validate(venue, vp string, evm bool, checkAddr func(path, v string, required bool), add func(path, format string, args ...any)) {
	if spec, _ := LookupVenue(venue); (spec.Family == KindEVM) != evm {
		return // reported by the caller as a venue of the wrong family
	}
	notUsed := func(field, value string) {
		if value != "" {
			add(vp+"."+field, "not used by %s", venue)
		}
	}
	checkHash := func() {
		if v.InitCodeHash != "" && !isHex32(v.InitCodeHash) {
			add(vp+".initCodeHash", "want 0x followed by 64 hex digits")
		}
	}
	switch venue {
	case "uniswap-v2":
		checkAddr(vp+".factory", v.Factory, true)
		checkAddr(vp+".router", v.Router, true)
		notUsed("quoter", v.Quoter)
		v.notUsedOutsideV3(notUsed)
		if v.FeeBps < 0 || v.FeeBps > maxFeeBps {
			add(vp+".feeBps", "want 0 to %d", maxFeeBps)
		}
		checkHash()
		checkAddr(vp+".stakingRewardsFactory", v.StakingRewardsFactory, false)
	case "uniswap-v3":
		checkAddr(vp+".factory", v.Factory, true)
		checkAddr(vp+".router", v.Router, false)
		checkAddr(vp+".quoter", v.Quoter, true)
		checkAddr(vp+".tickLens", v.TickLens, false)
		checkAddr(vp+".positionManager", v.PositionManager, false)
		checkAddr(vp+".staker", v.Staker, false)
		if v.StakerStartBlock != 0 && v.Staker == "" {
			add(vp+".stakerStartBlock", "is the staker's deployment block: give staker too")
		}
		checkAddr(vp+".migrator", v.Migrator, false)
		if v.FeeBps != 0 {
			add(vp+".feeBps", "not used by uniswap-v3, whose fee is per pool")
		}
		checkHash()
		notUsed("stakingRewardsFactory", v.StakingRewardsFactory)
	default: // Solana venues: factory is the program id
		checkAddr(vp+".factory", v.Factory, true)
		notUsed("router", v.Router)
		notUsed("quoter", v.Quoter)
		v.notUsedOutsideV3(notUsed)
		notUsed("initCodeHash", v.InitCodeHash)
		notUsed("stakingRewardsFactory", v.StakingRewardsFactory)
		if v.FeeBps != 0 {
			add(vp+".feeBps", "not used by %s, whose fee is per pool", venue)
		}
	}
}

// notUsedOutsideV3 reports, through notUsed, each uniswap-v3-only setting that is set.
func (v VenueConfig) notUsedOutsideV3(notUsed func(field, value string)) {
	notUsed("tickLens", v.TickLens)
	notUsed("positionManager", v.PositionManager)
	notUsed("staker", v.Staker)
	if v.StakerStartBlock != 0 {
		notUsed("stakerStartBlock", "set")
	}
	notUsed("migrator", v.Migrator)
}

// Redacted returns a deep copy of c safe to log: RPC URLs lose their credentials (see RedactURL).
func (c Config) Redacted() Config {
	out := Config{Chains: make(map[string]ChainConfig, len(c.Chains))}
	if c.Chains == nil {
		out.Chains = nil
	}
	for name, cc := range c.Chains {
		cc.RPCURLs = slices.Clone(cc.RPCURLs)
		for i, u := range cc.RPCURLs {
			cc.RPCURLs[i] = RedactURL(u)
		}
		cc.USDStablecoins = slices.Clone(cc.USDStablecoins)
		if cc.Venues != nil {
			venues := make(map[string]VenueConfig, len(cc.Venues))
			for k, v := range cc.Venues {
				venues[k] = v
			}
			cc.Venues = venues
		}
		out.Chains[name] = cc
	}
	return out
}

const redacted = "redacted"

// RedactURL returns raw with anything that may be a credential replaced by "redacted": the
// userinfo, every query value, the fragment, and every path segment that looks like an API key
// (providers put keys in the path, as in /v2/<key>). Only scheme, host, port and short path
// segments such as "v2" or "rpc" survive. A URL that does not parse is redacted whole.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return redacted
	}
	if u.User != nil {
		u.User = url.User(redacted)
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{redacted}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment, u.RawFragment = "", ""
	if u.Path != "" {
		segs := strings.Split(u.Path, "/")
		for i, s := range segs {
			if looksSecret(s) {
				segs[i] = redacted
			}
		}
		u.Path, u.RawPath = strings.Join(segs, "/"), ""
	}
	return u.String()
}

// looksSecret reports whether a path segment may be a key: long, or mixing letters and digits beyond a version tag.
func looksSecret(s string) bool {
	if len(s) >= 16 {
		return true
	}
	var letters, digits, other int
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
			letters++
		case '0' <= r && r <= '9':
			digits++
		default:
			if r != '-' && r != '_' && r != '.' {
				other++
			}
		}
	}
	return other > 0 || letters > 0 && digits > 0 && len(s) > 4
}

func normalizeURL(u *url.URL) string {
	n := *u
	n.Scheme = strings.ToLower(n.Scheme)
	n.Host = strings.ToLower(n.Host)
	return n.String()
}

func addrKey(evm bool, a string) string {
	if evm {
		return strings.ToLower(a)
	}
	return a
}

func isZeroEVM(a string) bool { return strings.Trim(a[2:], "0") == "" }

func isHex32(s string) bool {
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return false
	}
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// familyVenues are the venues of a chain family, in the contract's order.
func familyVenues(k Kind) []string {
	var out []string
	for _, v := range VenueSpecs {
		if v.Family == k {
			out = append(out, v.Name)
		}
	}
	return out
}

func supportedNames() string {
	names := make([]string, len(Supported))
	for i, s := range Supported {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

func chainPath(name string) string { return "chains." + keyPath(name) }

// keyPath renders a JSON object key in a path: as is when it is a plain name, quoted otherwise.
func keyPath(k string) string {
	if k == "" {
		return strconv.Quote(k)
	}
	for _, r := range k {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_') {
			return strconv.Quote(k)
		}
	}
	return k
}

// sortErrors orders field errors by chain (the contract's order), then path.
func sortErrors(errs []error) {
	rank := func(e error) (int, string) {
		var fe *FieldError
		if !errors.As(e, &fe) {
			return len(Supported) + 1, e.Error()
		}
		rest, _ := strings.CutPrefix(fe.Path, "chains.")
		name, _, _ := strings.Cut(rest, ".")
		for i, s := range Supported {
			if s.Name == name {
				return i, fe.Path
			}
		}
		return len(Supported), fe.Path
	}
	slices.SortStableFunc(errs, func(a, b error) int {
		ra, pa := rank(a)
		rb, pb := rank(b)
		if ra != rb {
			return ra - rb
		}
		return strings.Compare(pa, pb)
	})
}

// checkShape walks the JSON document token by token against the file types, so that unknown
// fields, duplicate keys, wrong types, out-of-range numbers and trailing data are reported with
// their path (encoding/json names neither the path of an unknown field nor duplicate keys).
func checkShape(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := walk(dec, reflect.TypeFor[fileConfig](), "$"); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return &FieldError{Path: "$", Msg: "unexpected data after the document"}
	}
	return nil
}

func walk(dec *json.Decoder, t reflect.Type, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return syntaxError(path, err)
	}
	if tok == nil { // null: encoding/json leaves the field as it is, i.e. absent
		return nil
	}
	want := func(what string) error { return &FieldError{Path: path, Msg: "want " + what} }
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if tok != json.Delim('{') {
			return want("an object")
		}
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return syntaxError(path, err)
			}
			key := kt.(string)
			kp := joinPath(path, keyPath(key))
			if seen[key] {
				return &FieldError{Path: kp, Msg: "duplicate key"}
			}
			seen[key] = true
			et := t.Elem
			if t.Kind() == reflect.Struct {
				f, ok := fieldByTag(t, key)
				if !ok {
					return &FieldError{Path: kp, Msg: "unknown field"}
				}
				et = func() reflect.Type { return f.Type }
			}
			if err := walk(dec, et(), kp); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return syntaxError(path, err)
		}
	case reflect.Slice:
		if tok != json.Delim('[') {
			return want("an array")
		}
		for i := 0; dec.More(); i++ {
			if err := walk(dec, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return syntaxError(path, err)
		}
	case reflect.String:
		if _, ok := tok.(string); !ok {
			return want("a string")
		}
	case reflect.Int, reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return want("an integer")
		}
		if strings.ContainsAny(string(n), ".eE") {
			return want("an integer")
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return want("an integer in range")
		}
	case reflect.Uint64:
		n, ok := tok.(json.Number)
		if !ok {
			return want("a non-negative integer")
		}
		if strings.ContainsAny(string(n), ".eE") {
			return want("a non-negative integer")
		}
		if _, err := strconv.ParseUint(string(n), 10, 64); err != nil {
			return want("a non-negative integer in range")
		}
	default:
		return &FieldError{Path: path, Msg: "unsupported field type " + t.String()}
	}
	return nil
}

func syntaxError(path string, err error) error {
	if err == io.EOF {
		return &FieldError{Path: path, Msg: "unexpected end of JSON"}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &FieldError{Path: path, Msg: fmt.Sprintf("invalid JSON at byte %d", se.Offset)}
	}
	return &FieldError{Path: path, Msg: "invalid JSON"}
}

func joinPath(path, key string) string {
	if path == "$" {
		return key
	}
	return path + "." + key
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
