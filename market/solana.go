package market

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// Token reads on chains whose holder balances are not indexed (Solana): what the token reads
// take from the mint and its largest holders, read live through Chain.Live.
//
//   - Resolve: symbol and name (the mint's Token-2022 metadata extension, else its Metaplex metadata
//     account), decimals, program and supply; one round trip; pools from the index.
//   - Holders: the largest owners (token accounts of one owner summed), from the adapter's scan of
//     every token account of the mint, or its largest accounts when the RPC refuses the scan.
//   - Stats: supply and holder count beside the index's figures.
//   - TokenAudit and a pool's Audit: the mint's facts (authorities, Token-2022 extensions, the
//     top-10 holders' share); a pool's Audit adds the pool's liquidity: its LP supply, the LP
//     locked for good, and who holds the rest (lpaudit.go).
//   - Search: an address is looked up on the chain; a name or symbol is matched against the
//     index's tokens of the chain and the chain's configured Tokens.
//
// Solana addresses are base58 and case-sensitive: they are kept exactly as given (after
// chain.ParseSolanaAddress checks them), never lower-cased or checksummed.

// LiveTokens is what the service reads live of a chain whose holders are not indexed;
// *solana.Client implements it.
type LiveTokens interface {
	Mints(ctx context.Context, mints []string) ([]chain.SVMMint, error)
	Holders(ctx context.Context, mint string, o chain.SVMHoldersOptions) (chain.SVMHolderList, error)
}

// KnownTokensTTL is how long Search keeps the metadata of Chain.Tokens before reading it again.
const KnownTokensTTL = time.Minute

type knownTokens struct {
	mu     sync.Mutex
	at     time.Time
	tokens []Token
}

// solanaAddress checks a Solana address (a mint, a pool): errors wrap chain.ErrInvalidAddress (400
// invalid_address) and say what the string is instead (an EVM address, not base58, another length).
func solanaAddress(what, addr string) (string, error) {
	if _, err := chain.ParseSolanaAddress("address", addr); err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return addr, nil
}

// solanaToken is a mint as a response token: the metadata's symbol and name (wrapped SOL, which
// has none on some clusters, is named), the address as the chain spells it.
func solanaToken(chainName string, m chain.SVMMint) Token {
	t := Token{Chain: chainName, Address: m.Address, Decimals: m.Decimals}
	t.Name, t.Symbol, _ = m.NameSymbol()
	return t
}

// readMint reads one mint: ErrNotFound when the address is not a mint of SPL Token or Token-2022.
func (s *Service) readMint(ctx context.Context, c *Chain, addr string) (chain.SVMMint, error) {
	addr, err := solanaAddress("mint", addr)
	if err != nil {
		return chain.SVMMint{}, err
	}
	ms, err := c.Live.Mints(ctx, []string{addr})
	if err != nil {
		return chain.SVMMint{}, fmt.Errorf("read mint %s on %s: %w", addr, c.Name, err)
	}
	if len(ms) != 1 || !ms[0].Found {
		return chain.SVMMint{}, fmt.Errorf("%s is not a token mint on %s: %w", addr, c.Name, ErrNotFound)
	}
	return ms[0], nil
}

// readHolders reads a mint's largest holders (at most limit): ErrNotFound when it is not a mint.
func (s *Service) readHolders(ctx context.Context, c *Chain, addr string, limit int) (chain.SVMHolderList, error) {
	addr, err := solanaAddress("mint", addr)
	if err != nil {
		return chain.SVMHolderList{}, err
	}
	l, err := c.Live.Holders(ctx, addr, chain.SVMHoldersOptions{Limit: limit})
	if err != nil {
		return chain.SVMHolderList{}, fmt.Errorf("read holders of %s on %s: %w", addr, c.Name, err)
	}
	if !l.Mint.Found {
		return chain.SVMHolderList{}, fmt.Errorf("%s is not a token mint on %s: %w", addr, c.Name, ErrNotFound)
	}
	return l, nil
}

// liveSearch: an address is read on the chain (a mint or nothing); other text matches the
// symbols and names of the index's tokens and of the chain's configured tokens, ignoring case,
// exact symbols first.
func (s *Service) liveSearch(ctx context.Context, c *Chain, q string) ([]Token, error) {
	out := []Token{}
	if chain.IsSolanaAddress(q) {
		ms, err := c.Live.Mints(ctx, []string{q})
		if err != nil {
			return nil, fmt.Errorf("search %s: %w", c.Name, err)
		}
		if len(ms) == 1 && ms[0].Found {
			out = append(out, solanaToken(c.Name, ms[0]))
		}
		return out, nil
	}
	seen := map[string]bool{}
	if s.index != nil {
		found, err := s.index.SearchTokens(ctx, c.Name, q, SearchLimit)
		if err != nil {
			return nil, err
		}
		for _, t := range found {
			seen[t.Address] = true
			out = append(out, Token{Chain: c.Name, Address: t.Address, Symbol: t.Symbol, Name: t.Name, Decimals: t.Decimals})
		}
	}
	known, err := s.knownTokens(ctx, c)
	if err != nil {
		return nil, err
	}
	lq := strings.ToLower(q)
	var matched []Token
	for _, t := range known {
		if !seen[t.Address] && (strings.Contains(strings.ToLower(t.Symbol), lq) || strings.Contains(strings.ToLower(t.Name), lq)) {
			matched = append(matched, t)
		}
	}
	exact := func(t Token) bool { return strings.ToLower(t.Symbol) == lq }
	slices.SortStableFunc(matched, func(a, b Token) int {
		if ea, eb := exact(a), exact(b); ea != eb {
			if ea {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Symbol, b.Symbol)
	})
	out = append(out, matched...)
	return out[:min(len(out), SearchLimit)], nil
}

// knownTokens returns the configured tokens of the chain that are mints, read at most
// KnownTokensTTL ago.
func (s *Service) knownTokens(ctx context.Context, c *Chain) ([]Token, error) {
	if len(c.Tokens) == 0 {
		return nil, nil
	}
	c.known.mu.Lock()
	defer c.known.mu.Unlock()
	now := s.now()
	if !c.known.at.IsZero() && now.Sub(c.known.at) < KnownTokensTTL {
		return c.known.tokens, nil
	}
	ms, err := c.Live.Mints(ctx, c.Tokens)
	if err != nil {
		return nil, fmt.Errorf("read the known tokens of %s: %w", c.Name, err)
	}
	tokens := make([]Token, 0, len(ms))
	for _, m := range ms {
		if m.Found {
			tokens = append(tokens, solanaToken(c.Name, m))
		}
	}
	c.known.at, c.known.tokens = now, tokens
	return tokens, nil
}

// liveResolve reads a mint: metadata, decimals, program, supply and extensions; its pools come from
// the index.
func (s *Service) liveResolve(ctx context.Context, c *Chain, addr string) (Resolution, error) {
	m, err := s.readMint(ctx, c, addr)
	if err != nil {
		return Resolution{}, err
	}
	out := Resolution{Token: solanaToken(c.Name, m), TotalSupply: Units(m.Supply, m.Decimals), Pools: []string{}, Program: m.Program,
		Extensions: slices.Clone(m.Extensions.Types)}
	pools, err := s.index.PoolsOf(ctx, c.Name, m.Address)
	if err != nil {
		return Resolution{}, err
	}
	for _, p := range pools {
		out.Pools = append(out.Pools, p.Address)
	}
	if m.Metadata != nil {
		out.MetadataSource = m.Metadata.Source
	}
	if out.Extensions == nil {
		out.Extensions = []string{}
	}
	return out, nil
}

// liveHolders returns a mint's HoldersLimit largest owners with their share of the supply.
func (s *Service) liveHolders(ctx context.Context, c *Chain, addr string) (Token, []Holder, error) {
	l, err := s.readHolders(ctx, c, addr, HoldersLimit)
	if err != nil {
		return Token{}, nil, err
	}
	m := l.Mint
	out := make([]Holder, 0, len(l.Holders))
	for _, h := range l.Holders {
		row := Holder{Address: h.Owner, Amount: Units(h.Amount, m.Decimals), SharePct: "0"}
		if m.Supply != nil && m.Supply.Sign() > 0 {
			row.SharePct = Decimal(Ratio(h.Amount, m.Supply) * 100)
		}
		out = append(out, row)
	}
	return solanaToken(c.Name, m), out, nil
}

// liveStats are a mint's figures: the supply and the number of holders read live (exact when every
// token account could be scanned; otherwise a lower bound, HoldersPartial), with the price,
// liquidity and activity of its indexed pools (empty for a mint no indexed pool trades).
func (s *Service) liveStats(ctx context.Context, c *Chain, addr string) (Stats, error) {
	l, err := s.readHolders(ctx, c, addr, 1)
	if err != nil {
		return Stats{}, err
	}
	t := solanaToken(c.Name, l.Mint)
	out := Stats{Token: t, LiquidityUSD: "0"}
	if _, pools, err := s.tokenPools(ctx, c.Name, l.Mint.Address); err == nil {
		if out, err = s.poolStats(ctx, c.Name, l.Mint.Address, t, pools); err != nil {
			return Stats{}, err
		}
	} else if !errors.Is(err, ErrNotFound) {
		return Stats{}, err
	}
	out.Holders, out.HoldersPartial, out.Supply = l.Owners, !l.Complete, Units(l.Mint.Supply, l.Mint.Decimals)
	return out, nil
}

// TokenAudit audits a token without a pool. On a chain read through Live (Solana): the mint and freeze authorities,
// the Token-2022 extensions that let someone move, tax, block or freeze holders' tokens (transfer
// fee, permanent delegate, transfer hook, non-transferable, default account state, pausable), and
// the 10 largest holders' share of the supply; the score counts as Audit's does. Audit.Pool is
// empty. One round trip when the RPC lets every token account be scanned.
//
// Errors: chain.ErrInvalidAddress (400 invalid_address), ErrNotFound (404: not a mint, or a chain
// the service does not read), ErrInvalid (400 invalid_request: on an EVM chain, audit a pool's
// token with Audit), and the adapter's upstream errors (chain.ErrUpstreamUnavailable 503,
// chain.ErrUpstreamTimeout 504, chain.ErrUpstreamBadResponse 502).
func (s *Service) TokenAudit(ctx context.Context, chainName, mint string) (Audit, error) {
	c, err := s.chain(chainName)
	if err != nil {
		return Audit{}, err
	}
	if c.Live == nil {
		return Audit{}, fmt.Errorf("a token is audited with one of its pools on %s: %w", chainName, ErrInvalid)
	}
	l, err := s.readHolders(ctx, c, mint, 10)
	if err != nil {
		return Audit{}, err
	}
	f := solanaFindings(l)
	return Audit{Token: l.Mint.Address, Score: auditScore(f), Findings: f}, nil
}

// token2022Program is the Token-2022 program's id, a mint's Program when it is one of its mints.
var token2022Program = svm.EncodeAddress(svm.Token2022Program)

// solanaFindings are the pool-less audit findings of a mint read with its largest holders.
func solanaFindings(l chain.SVMHolderList) []Finding {
	m, x := l.Mint, l.Mint.Extensions
	var f []Finding
	add := func(level, code, format string, args ...any) {
		f = append(f, Finding{Code: code, Level: level, Message: fmt.Sprintf(format, args...)})
	}
	symbol := "tokens"
	if m.Metadata != nil && m.Metadata.Symbol != "" {
		symbol = m.Metadata.Symbol
	}
	if m.MintAuthority != "" {
		add("warning", "mint_authority", "the mint authority (%s) can mint more tokens", m.MintAuthority)
	} else {
		add("info", "mint_authority_revoked", "no one can mint more tokens: the supply is fixed")
	}
	if m.FreezeAuthority != "" {
		add("warning", "freeze_authority", "the freeze authority (%s) can freeze any holder's token account", m.FreezeAuthority)
	} else {
		add("info", "freeze_authority_revoked", "no one can freeze holders' token accounts")
	}
	if m.Program == token2022Program && len(x.Types) > 0 {
		add("info", "token_2022_extensions", "Token-2022 mint with the extensions %s", strings.Join(x.Types, ", "))
	}
	if fee := m.TransferFee; fee != nil {
		level := "info"
		switch {
		case fee.BasisPoints >= 1000:
			level = "danger"
		case fee.BasisPoints > 0:
			level = "warning"
		}
		msg := fmt.Sprintf("transfers pay a %s%% fee (at most %s %s), withheld from the amount received",
			Decimal(float64(fee.BasisPoints)/100), Units(new(big.Int).SetUint64(fee.MaximumFee), m.Decimals), symbol)
		if x.TransferFee != nil && x.TransferFee.ConfigAuthority != "" {
			msg += fmt.Sprintf("; its authority (%s) can change it", x.TransferFee.ConfigAuthority)
			if level == "info" {
				level = "warning"
			}
		}
		add(level, "transfer_fee", "%s", msg)
	}
	if x.PermanentDelegate != "" {
		add("danger", "permanent_delegate", "a permanent delegate (%s) can transfer or burn tokens from any holder's account", x.PermanentDelegate)
	}
	if h := x.TransferHook; h != nil {
		switch {
		case h.Program != "":
			msg := fmt.Sprintf("every transfer calls the program %s, which may refuse it", h.Program)
			if h.Authority != "" {
				msg += fmt.Sprintf("; its authority (%s) can change the program", h.Authority)
			}
			add("warning", "transfer_hook", "%s", msg)
		case h.Authority != "":
			add("warning", "transfer_hook", "no transfer hook is set, but its authority (%s) can set one", h.Authority)
		}
	}
	if x.NonTransferable {
		add("danger", "non_transferable", "the token cannot be transferred")
	}
	switch x.DefaultAccountState {
	case "frozen":
		add("danger", "default_account_frozen", "new token accounts start frozen: a holder can move tokens only once the freeze authority thaws the account")
	case "initialized":
		add("info", "default_account_state", "new token accounts start unfrozen, but the default can be changed")
	}
	if p := x.Pausable; p != nil {
		if p.Paused {
			add("danger", "paused", "transfers, mints and burns are paused by %s", p.Authority)
		} else if p.Authority != "" {
			add("warning", "pausable", "the pause authority (%s) can stop every transfer", p.Authority)
		}
	}
	if m.Supply != nil && m.Supply.Sign() > 0 {
		pct := 0.0
		if l.Top10 != nil {
			pct = Ratio(l.Top10, m.Supply) * 100
		}
		level := "info"
		if pct > 50 {
			level = "warning"
		}
		msg := fmt.Sprintf("the 10 largest holders hold %s%% of the supply", Decimal(pct))
		if !l.Complete {
			msg += " (at least: only the largest token accounts could be read)"
		}
		add(level, "top10_holders", "%s", msg)
	}
	return f
}

// auditScore is 100 minus 40 per danger and 15 per warning, at least 0 (as Audit counts).
func auditScore(f []Finding) int {
	score := 100
	for _, x := range f {
		switch x.Level {
		case "danger":
			score -= 40
		case "warning":
			score -= 15
		}
	}
	return max(0, score)
}
