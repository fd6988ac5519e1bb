package market

import (
	"cmp"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/solana"
	"github.com/partner-platform/partnerd/chain/solana/localnet"
	"github.com/partner-platform/partnerd/chain/svm"
	"github.com/partner-platform/partnerd/index"
	"github.com/partner-platform/partnerd/store/storetest"
)

// Solana token reads against the local validator (standard Solana JSON-RPC over LiteSVM): every
// answer must equal what the validator was seeded with (localnet.Node: mints, holdings).

// solanaService is a market service reading the validator at url as chain "solana" (with an index
// on SQLite that holds no Solana token), whose known tokens are the given mints.
func solanaService(t *testing.T, url string, opts solana.Options, tokens ...string) *Service {
	t.Helper()
	client, err := solana.New([]string{url}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	st := storetest.SQLite(t)
	ix := index.New(st.Client, st.Dialect, map[string]index.Pricing{})
	return New(ix, []*Chain{{Name: "base"}, {Name: "solana", Source: solana.NewSource(client), Live: client, Tokens: tokens}},
		slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func seeded(t *testing.T, n *localnet.Node, symbol string) localnet.Mint {
	t.Helper()
	m, ok := n.Mint(symbol)
	if !ok {
		t.Fatalf("the validator seeded no %s", symbol)
	}
	return m
}

type seededHolder struct {
	owner  string
	amount *big.Int
}

// seededHolders are the owners of a mint with a positive seeded balance (token accounts summed),
// largest first, ties by owner.
func seededHolders(n *localnet.Node, mint string) []seededHolder {
	by := map[string]*big.Int{}
	for _, h := range n.Holdings {
		if h.Mint == mint && h.Amount > 0 {
			if by[h.Address] == nil {
				by[h.Address] = new(big.Int)
			}
			by[h.Address].Add(by[h.Address], new(big.Int).SetUint64(h.Amount))
		}
	}
	var out []seededHolder
	for o, a := range by {
		out = append(out, seededHolder{o, a})
	}
	slices.SortFunc(out, func(a, b seededHolder) int {
		if c := b.amount.Cmp(a.amount); c != 0 {
			return c
		}
		return cmp.Compare(a.owner, b.owner)
	})
	return out
}

func TestSolanaTokenReads(t *testing.T) {
	n := localnet.StartTest(t)
	s := solanaService(t, n.URL, solana.Options{})
	if !s.Serves("solana") || !s.Serves("base") || s.Serves("ethereum") {
		t.Errorf("serves solana %v, base %v, ethereum %v", s.Serves("solana"), s.Serves("base"), s.Serves("ethereum"))
	}
	authority, ok := n.Keypair("authority")
	if !ok {
		t.Fatal("no authority keypair")
	}
	// USDC and AUR: SPL Token with Metaplex metadata (USDC with a freeze authority, AUR without);
	// EMB: Token-2022 with a 1% transfer fee and its metadata in the mint.
	for _, symbol := range []string{"USDC", "AUR", "EMB"} {
		t.Run(symbol, func(t *testing.T) {
			want := seeded(t, n, symbol)
			supply := new(big.Int).SetUint64(want.Supply)
			wantToken := Token{Chain: "solana", Address: want.Address, Symbol: want.Symbol, Name: want.Name, Decimals: int(want.Decimals)}

			r, err := s.Resolve(t.Context(), "solana", want.Address)
			if err != nil {
				t.Fatal(err)
			}
			if r.Token != wantToken || r.TotalSupply != Units(supply, int(want.Decimals)) || r.Program != want.Program ||
				r.MetadataSource != want.Metadata || len(r.Pools) != 0 || r.Pools == nil {
				t.Errorf("resolution %+v, seeded %+v", r, want)
			}
			if want.Program == solana.Token2022Program {
				if !slices.Contains(r.Extensions, "TransferFeeConfig") || !slices.Contains(r.Extensions, "TokenMetadata") {
					t.Errorf("extensions %v", r.Extensions)
				}
			} else if len(r.Extensions) != 0 {
				t.Errorf("SPL Token extensions %v", r.Extensions)
			}

			holders := seededHolders(n, want.Address)
			tok, got, err := s.Holders(t.Context(), "solana", want.Address)
			if err != nil {
				t.Fatal(err)
			}
			if tok != wantToken || len(got) != min(len(holders), HoldersLimit) {
				t.Fatalf("holders of %+v: %d, seeded %d", tok, len(got), len(holders))
			}
			for i, h := range got {
				w := Holder{Address: holders[i].owner, Amount: Units(holders[i].amount, int(want.Decimals)),
					SharePct: Decimal(Ratio(holders[i].amount, supply) * 100)}
				if h != w {
					t.Errorf("holder %d = %+v, seeded %+v", i, h, w)
				}
			}

			st, err := s.Stats(t.Context(), "solana", want.Address)
			if err != nil {
				t.Fatal(err)
			}
			if st.Token != wantToken || st.Holders != len(holders) || st.HoldersPartial || st.Supply != r.TotalSupply || st.PriceUSD != "" || st.FdvUSD != "" {
				t.Errorf("stats %+v", st)
			}

			a, err := s.TokenAudit(t.Context(), "solana", want.Address)
			if err != nil {
				t.Fatal(err)
			}
			top10 := new(big.Int)
			for _, h := range holders[:min(10, len(holders))] {
				top10.Add(top10, h.amount)
			}
			wantFindings := []Finding{{Code: "mint_authority", Level: "warning", Message: "the mint authority (" + authority.Address + ") can mint more tokens"}}
			if want.FreezeAuthority != "" {
				wantFindings = append(wantFindings, Finding{Code: "freeze_authority", Level: "warning",
					Message: "the freeze authority (" + want.FreezeAuthority + ") can freeze any holder's token account"})
			} else {
				wantFindings = append(wantFindings, Finding{Code: "freeze_authority_revoked", Level: "info", Message: "no one can freeze holders' token accounts"})
			}
			score := 100 - 15*len(slices.DeleteFunc(slices.Clone(wantFindings), func(f Finding) bool { return f.Level != "warning" }))
			if want.TransferFee != nil {
				wantFindings = append(wantFindings, Finding{Code: "token_2022_extensions", Level: "info", Message: "Token-2022 mint with the extensions " + strings.Join(r.Extensions, ", ")},
					Finding{Code: "transfer_fee", Level: "warning", Message: "transfers pay a " + Decimal(float64(want.TransferFee.BasisPoints)/100) +
						"% fee (at most " + Units(new(big.Int).SetUint64(want.TransferFee.MaximumFee), int(want.Decimals)) + " " + symbol +
						"), withheld from the amount received; its authority (" + authority.Address + ") can change it"})
				score -= 15
			}
			pct := Ratio(top10, supply) * 100
			level := "info"
			if pct > 50 {
				level, score = "warning", score-15
			}
			wantFindings = append(wantFindings, Finding{Code: "top10_holders", Level: level, Message: "the 10 largest holders hold " + Decimal(pct) + "% of the supply"})
			if a.Pool != "" || a.Token != want.Address || a.Score != score || !slices.Equal(a.Findings, wantFindings) {
				t.Errorf("audit %+v\nwant score %d, findings %+v", a, score, wantFindings)
			}
		})
	}
	// The seed's figures the audits above rest on, so that they test something.
	if emb := seeded(t, n, "EMB"); emb.TransferFee == nil || emb.TransferFee.BasisPoints != 100 || emb.TransferFee.MaximumFee != 10_000_000 {
		t.Errorf("EMB seeded with fee %+v", emb.TransferFee)
	}
	if usdc := seeded(t, n, "USDC"); usdc.Metadata != "metaplex" || usdc.FreezeAuthority != authority.Address || usdc.MintAuthority != authority.Address {
		t.Errorf("USDC seeded %+v", usdc)
	}

	// Wrapped SOL has no metadata on the validator: it is named all the same.
	sol, err := s.Resolve(t.Context(), "solana", solana.NativeMint)
	if err != nil {
		t.Fatal(err)
	}
	if sol.Token.Symbol != "WSOL" || sol.Token.Name != "Wrapped SOL" || sol.Token.Decimals != 9 || sol.MetadataSource != "" {
		t.Errorf("wrapped SOL %+v", sol)
	}
}

func TestSolanaSearch(t *testing.T) {
	n := localnet.StartTest(t)
	var all []string
	for _, m := range n.Mints {
		all = append(all, m.Address)
	}
	s := solanaService(t, n.URL, solana.Options{}, all...)
	usdc, emb := seeded(t, n, "USDC"), seeded(t, n, "EMB")
	holder, _ := n.Keypair("holder-0")
	symbols := func(ts []Token) []string {
		out := make([]string, len(ts))
		for i, t := range ts {
			out[i] = t.Symbol
		}
		return out
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{usdc.Address, []string{"USDC"}},                              // an address is read on the chain, exactly as given
		{emb.Address, []string{"EMB"}},                                // Token-2022 too
		{holder.Address, []string{}},                                  // a wallet is not a mint
		{"usdc", []string{"USDC"}},                                    // symbols ignore case
		{"ember", []string{"EMB"}},                                    // names too
		{"(localnet)", []string{"AUR", "EMB", "NIM", "QRTZ", "USDC"}}, // ordered by symbol
		{"wrapped", []string{"WSOL"}},                                 // wrapped SOL by its name
		{"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", []string{}},
		{"nothing like it", []string{}},
	} {
		got, err := s.Search(t.Context(), "solana", c.q)
		if err != nil {
			t.Fatalf("search %q: %v", c.q, err)
		}
		if !slices.Equal(symbols(got), c.want) {
			t.Errorf("search %q: %v, want %v", c.q, symbols(got), c.want)
		}
		for _, tok := range got {
			if m := seeded(t, n, tok.Symbol); tok.Address != m.Address || tok.Chain != "solana" || tok.Decimals != int(m.Decimals) {
				t.Errorf("search %q: %+v, seeded %+v", c.q, tok, m)
			}
		}
	}
	// An exact symbol comes first, then by symbol; the known tokens are read once a KnownTokensTTL.
	sc := s.chains["solana"]
	sc.known.mu.Lock()
	sc.known.tokens = append(sc.known.tokens, Token{Chain: "solana", Address: "X1", Symbol: "XUSD"}, Token{Chain: "solana", Address: "X2", Symbol: "USD"},
		Token{Chain: "solana", Address: "X3", Symbol: "AUSD"})
	sc.known.mu.Unlock()
	got, err := s.Search(t.Context(), "solana", "usd")
	if err != nil || !slices.Equal(symbols(got), []string{"USD", "AUSD", "USDC", "XUSD"}) {
		t.Errorf("search usd: %v %v", symbols(got), err)
	}
	later := time.Now().Add(KnownTokensTTL)
	s.now = func() time.Time { return later }
	got, err = s.Search(t.Context(), "solana", "usd")
	if err != nil || !slices.Equal(symbols(got), []string{"USDC"}) {
		t.Errorf("search usd once the known tokens are read again: %v %v", symbols(got), err)
	}
	got, err = s.Search(t.Context(), "solana", "qrtz")
	if err != nil || !slices.Equal(symbols(got), []string{"QRTZ"}) {
		t.Errorf("search qrtz: %v %v", symbols(got), err)
	}
	got, err = s.Search(t.Context(), "solana", "Aur")
	if err != nil || !slices.Equal(symbols(got), []string{"AUR"}) {
		t.Errorf("search aur: %v %v", symbols(got), err)
	}
}

// TestSolanaNoPoolIndexed: with no pool indexed on the chain, the pool reads answer ErrNotFound
// naming what is not indexed, and the lists and prices are empty.
func TestSolanaNoPoolIndexed(t *testing.T) {
	n := localnet.StartTest(t)
	s := solanaService(t, n.URL, solana.Options{})
	usdc := seeded(t, n, "USDC").Address
	ctx := t.Context()
	notFound := map[string]error{}
	_, notFound["price"] = s.Price(ctx, "solana", usdc)
	_, _, notFound["history"] = s.History(ctx, "solana", usdc, "", 90)
	_, _, notFound["trades"] = s.Trades(ctx, "solana", usdc, "", "", 50)
	_, _, notFound["top traders"] = s.TopTraders(ctx, "solana", usdc)
	_, notFound["pool"] = s.Pool(ctx, "solana", usdc)
	_, notFound["summary"] = s.Summary(ctx, "solana", usdc)
	_, notFound["chart"] = s.Chart(ctx, "solana", usdc, 15, 0, 10, "")
	_, notFound["pool audit"] = s.Audit(ctx, "solana", usdc, "")
	for op, err := range notFound {
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), usdc+" is not indexed") {
			t.Errorf("%s: %v, want ErrNotFound saying it is not indexed", op, err)
		}
	}
	if _, err := s.Reserves(ctx, "solana", usdc, usdc, usdc); !errors.Is(err, ErrNotFound) {
		t.Errorf("reserves of a mint: %v, want ErrNotFound", err)
	}
	for _, list := range []List{ListTrending, ListHot, ListNew} {
		if pools, err := s.Pools(ctx, "solana", list, ""); err != nil || len(pools) != 0 {
			t.Errorf("%s pools %v: %v", list, pools, err)
		}
	}
	if prices, err := s.PricesUSD(ctx, "solana", []string{usdc}); err != nil || len(prices) != 0 {
		t.Errorf("prices %v: %v", prices, err)
	}
}

func TestSolanaBadInput(t *testing.T) {
	n := localnet.StartTest(t)
	s := solanaService(t, n.URL, solana.Options{})
	ctx := t.Context()
	usdc := seeded(t, n, "USDC").Address
	reads := map[string]func(string) error{
		"resolve":    func(a string) error { _, err := s.Resolve(ctx, "solana", a); return err },
		"holders":    func(a string) error { _, _, err := s.Holders(ctx, "solana", a); return err },
		"stats":      func(a string) error { _, err := s.Stats(ctx, "solana", a); return err },
		"audit":      func(a string) error { _, err := s.TokenAudit(ctx, "solana", a); return err },
		"price":      func(a string) error { _, err := s.Price(ctx, "solana", a); return err },
		"trades":     func(a string) error { _, _, err := s.Trades(ctx, "solana", a, "", "", 50); return err },
		"pool":       func(a string) error { _, err := s.Pool(ctx, "solana", a); return err },
		"pool audit": func(a string) error { _, err := s.Audit(ctx, "solana", a, ""); return err },
	}
	for name, read := range reads {
		for _, bad := range []string{
			"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", // an EVM address
			"0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl",           // not base58
			"1111111111111111111111111111111",            // base58 of 31 bytes
			usdc + "2",                                   // base58 of 33 bytes
			"",
		} {
			if err := read(bad); !errors.Is(err, chain.ErrInvalidAddress) {
				t.Errorf("%s %q: %v, want chain.ErrInvalidAddress", name, bad, err)
			}
		}
	}
	// Valid addresses that are not mints: a wallet, and the token program itself.
	holder, _ := n.Keypair("holder-0")
	for _, name := range []string{"resolve", "holders", "stats", "audit"} {
		for _, a := range []string{holder.Address, solana.TokenProgram} {
			if err := reads[name](a); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "is not a token mint on solana") {
				t.Errorf("%s %s: %v, want ErrNotFound", name, a, err)
			}
		}
	}
	// The token audit without a pool is Solana's: on an EVM chain a token is audited with a pool.
	if _, err := s.TokenAudit(ctx, "base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"); !errors.Is(err, ErrInvalid) {
		t.Errorf("token audit on base: %v, want ErrInvalid", err)
	}
	if _, err := s.TokenAudit(ctx, "ethereum", usdc); !errors.Is(err, ErrNotFound) {
		t.Errorf("token audit on a chain not served: %v, want ErrNotFound", err)
	}
}

func TestSolanaUpstreamErrors(t *testing.T) {
	usdc := "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
	ctx := t.Context()

	// Down: nothing listens on the port.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	l.Close()
	s := solanaService(t, down, solana.Options{AttemptTimeout: time.Second, CallTimeout: 2 * time.Second}, usdc)
	// Hung: the RPC accepts the request and never answers.
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hung.Close)
	t.Cleanup(func() { close(release) })
	slow := solanaService(t, hung.URL, solana.Options{AttemptTimeout: 200 * time.Millisecond, CallTimeout: 300 * time.Millisecond}, usdc)

	for _, c := range []struct {
		s    *Service
		want error
		url  string
	}{{s, chain.ErrUpstreamUnavailable, down}, {slow, chain.ErrUpstreamTimeout, hung.URL}} {
		reads := map[string]error{}
		_, reads["resolve"] = c.s.Resolve(ctx, "solana", usdc)
		_, _, reads["holders"] = c.s.Holders(ctx, "solana", usdc)
		_, reads["stats"] = c.s.Stats(ctx, "solana", usdc)
		_, reads["audit"] = c.s.TokenAudit(ctx, "solana", usdc)
		_, reads["search by address"] = c.s.Search(ctx, "solana", usdc)
		_, reads["search by name"] = c.s.Search(ctx, "solana", "usd")
		for op, err := range reads {
			if !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", op, err, c.want)
			} else if strings.Contains(err.Error(), strings.TrimPrefix(c.url, "http://")) {
				t.Errorf("%s: the error names the RPC: %v", op, err)
			}
		}
	}
}

// TestSolanaFindings covers the extensions the seed has none of.
func TestSolanaFindings(t *testing.T) {
	const (
		auth = "Getiq6bf2BFP4gNXBHsBeFDcoXe9JQhwap36ffw8fRXL"
		hook = "HookProgram11111111111111111111111111111111"
	)
	codes := func(l chain.SVMHolderList) map[string]string {
		out := map[string]string{}
		for _, f := range solanaFindings(l) {
			out[f.Code] = f.Level
		}
		return out
	}
	base := chain.SVMMint{Found: true, Program: solana.Token2022Program, Decimals: 6, Supply: big.NewInt(1000)}
	m := base
	m.Extensions = chain.SVMMintExtensions{Types: []string{"PermanentDelegate", "TransferHook", "NonTransferable", "DefaultAccountState", "Pausable"},
		PermanentDelegate: auth, TransferHook: &chain.SVMTransferHook{Authority: auth, Program: hook}, NonTransferable: true,
		DefaultAccountState: "frozen", Pausable: &chain.SVMPausable{Authority: auth, Paused: true}}
	got := codes(chain.SVMHolderList{Mint: m, Top10: big.NewInt(600), Complete: false})
	want := map[string]string{"mint_authority_revoked": "info", "freeze_authority_revoked": "info", "token_2022_extensions": "info",
		"permanent_delegate": "danger", "transfer_hook": "warning", "non_transferable": "danger", "default_account_frozen": "danger",
		"paused": "danger", "top10_holders": "warning"}
	if len(got) != len(want) {
		t.Errorf("findings %v, want %v", got, want)
	}
	for c, level := range want {
		if got[c] != level {
			t.Errorf("%s: %q, want %q", c, got[c], level)
		}
	}
	f := solanaFindings(chain.SVMHolderList{Mint: m, Top10: big.NewInt(600)})
	if last := f[len(f)-1]; !strings.Contains(last.Message, "60% of the supply (at least") {
		t.Errorf("partial top 10: %q", last.Message)
	}
	if s := auditScore(f); s != 0 {
		t.Errorf("score %d", s)
	}

	// A fee of 10% or more is a danger; a zero fee no one can change is only information.
	m = base
	m.TransferFee = &svm.FeeSchedule{BasisPoints: 1500, MaximumFee: 5_000_000}
	m.Extensions = chain.SVMMintExtensions{Types: []string{"TransferFeeConfig"}, TransferFee: &chain.SVMTransferFeeConfig{}}
	if got := codes(chain.SVMHolderList{Mint: m, Top10: big.NewInt(1), Complete: true}); got["transfer_fee"] != "danger" {
		t.Errorf("15%% fee: %v", got)
	}
	m.TransferFee = &svm.FeeSchedule{}
	if got := codes(chain.SVMHolderList{Mint: m, Top10: big.NewInt(1), Complete: true}); got["transfer_fee"] != "info" {
		t.Errorf("0%% fee: %v", got)
	}
	m.Extensions.TransferFee.ConfigAuthority = auth
	if got := codes(chain.SVMHolderList{Mint: m, Top10: big.NewInt(1), Complete: true}); got["transfer_fee"] != "warning" {
		t.Errorf("0%% fee with an authority: %v", got)
	}
	// A hook authority without a program, a pause authority, a default state of initialized.
	m = base
	m.Extensions = chain.SVMMintExtensions{TransferHook: &chain.SVMTransferHook{Authority: auth}, Pausable: &chain.SVMPausable{Authority: auth},
		DefaultAccountState: "initialized"}
	if got := codes(chain.SVMHolderList{Mint: m, Top10: big.NewInt(1), Complete: true}); got["transfer_hook"] != "warning" ||
		got["pausable"] != "warning" || got["default_account_state"] != "info" {
		t.Errorf("authorities only: %v", got)
	}
}
