package solana

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	bin "github.com/gagliardetto/binary"
	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/token"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// fixtureData returns an account's data from the committed fixtures.
func fixtureData(t testing.TB, k sol.PublicKey) (sol.PublicKey, []byte) {
	t.Helper()
	var keyed []struct {
		Pubkey  string         `json:"pubkey"`
		Account fixtureAccount `json:"account"`
	}
	readJSON(t, "testdata/accounts.json", &keyed)
	for _, a := range keyed {
		if a.Pubkey == k.String() {
			return sol.MustPublicKeyFromBase58(a.Account.Owner), a.Account.bytes(t)
		}
	}
	t.Fatalf("no fixture account %s", k)
	return sol.PublicKey{}, nil
}

func TestParseSPLMint(t *testing.T) {
	program, data := fixtureData(t, usdcMint)
	m, err := parseMint(program, data)
	if err != nil {
		t.Fatal(err)
	}
	if m.decimals != 6 || m.supply != usdcSupply || m.mintAuthority != usdcMintAuthority.String() || m.freezeAuthority != usdcFreezeAuthority.String() ||
		len(m.ext.Types) != 0 {
		t.Errorf("USDC = %+v", m)
	}
	// The documented offsets: supply at 36, decimals at 44, is_initialized at 45, freeze authority's tag at 46.
	if binary.LittleEndian.Uint64(data[36:]) != usdcSupply || data[44] != 6 || data[45] != 1 || data[46] != 1 {
		t.Errorf("USDC mint bytes do not follow the documented layout: % x", data)
	}
	// solana-go's own decoder agrees.
	var theirs token.Mint
	if err := bin.NewBinDecoder(data).Decode(&theirs); err != nil || theirs.Supply != m.supply || int(theirs.Decimals) != m.decimals ||
		theirs.MintAuthority.String() != m.mintAuthority || theirs.FreezeAuthority.String() != m.freezeAuthority {
		t.Errorf("solana-go decodes %+v, %v", theirs, err)
	}
	// wrapped SOL: no authorities.
	program, data = fixtureData(t, wsolMint)
	if m, err := parseMint(program, data); err != nil || m.decimals != 9 || m.mintAuthority != "" || m.freezeAuthority != "" {
		t.Errorf("wSOL = %+v, %v", m, err)
	}
	// An SPL Token mint never has extensions: 83 bytes or more is not a mint of it.
	if _, err := parseMint(tokenProgramID, append(slices.Clone(data), 0)); !errors.Is(err, errLayout) {
		t.Errorf("SPL Token mint of 83 bytes: %v", err)
	}
}

func TestParseToken2022Mint(t *testing.T) {
	program, data := fixtureData(t, pyusdMint)
	if program != token2022ID {
		t.Fatalf("PYUSD owned by %s", program)
	}
	m, err := parseMint(program, data)
	if err != nil {
		t.Fatal(err)
	}
	wantTypes := []string{"MintCloseAuthority", "PermanentDelegate", "TransferFeeConfig", "ConfidentialTransferMint",
		"ConfidentialTransferFeeConfig", "TransferHook", "MetadataPointer", "TokenMetadata"}
	if !slices.Equal(m.ext.Types, wantTypes) {
		t.Errorf("PYUSD extensions = %v, want %v", m.ext.Types, wantTypes)
	}
	e := m.ext
	if m.decimals != 6 || m.supply != pyusdSupply || e.PermanentDelegate != testKey("PYUSD permanent delegate").String() ||
		e.MintCloseAuthority != testKey("PYUSD authority").String() {
		t.Errorf("PYUSD = %+v", m)
	}
	if tf := e.TransferFee; tf == nil || tf.Newer != (svm.FeeSchedule{Epoch: 605}) || tf.ConfigAuthority == "" {
		t.Errorf("PYUSD transfer fee = %+v", tf)
	}
	if h := e.TransferHook; h == nil || h.Program != "" || h.Authority != testKey("PYUSD authority").String() {
		t.Errorf("PYUSD transfer hook = %+v (no program: no hook)", h)
	}
	if p := e.MetadataPointer; p == nil || p.Address != pyusdMint.String() {
		t.Errorf("PYUSD metadata pointer = %+v", p)
	}
	if md := e.TokenMetadata; md == nil || md.Name != "PayPal USD" || md.Symbol != "PYUSD" || md.Mint != pyusdMint.String() ||
		md.URI != "https://token-metadata.paxos.com/pyusd_metadata/prod/solana/pyusd_metadata.json" {
		t.Errorf("PYUSD metadata = %+v", md)
	}
	// The documented layout: zero padding from 82 to 165, account type 1 at 165, the first TLV at
	// 166 (MintCloseAuthority: type 3, length 32).
	if !bytes.Equal(data[82:165], make([]byte, 83)) || data[165] != 1 || binary.LittleEndian.Uint16(data[166:]) != 3 ||
		binary.LittleEndian.Uint16(data[168:]) != 32 {
		t.Errorf("PYUSD bytes do not follow the documented layout")
	}

	program, data = fixtureData(t, feeMint)
	m, err = parseMint(program, data)
	if err != nil {
		t.Fatal(err)
	}
	tf := m.ext.TransferFee
	if tf == nil || tf.Older != (svm.FeeSchedule{Epoch: 0, BasisPoints: 100, MaximumFee: 1_000_000_000}) ||
		tf.Newer != (svm.FeeSchedule{Epoch: 700, BasisPoints: 150, MaximumFee: 5_000_000}) || tf.WithheldAmount != 98_765 {
		t.Fatalf("FEET transfer fee = %+v", tf)
	}
	if tf.At(699) != tf.Older || tf.At(700) != tf.Newer || tf.At(fixtureEpoch) != tf.Newer {
		t.Errorf("fee by epoch: 699 %+v, 700 %+v", tf.At(699), tf.At(700))
	}
	if md := m.ext.TokenMetadata; md == nil || !slices.Equal(md.Additional, [][2]string{{"issuer", "partnerd tests"}}) {
		t.Errorf("FEET metadata = %+v", md)
	}

	for k, check := range map[sol.PublicKey]func(chain.SVMMintExtensions) bool{
		hookMint: func(e chain.SVMMintExtensions) bool {
			return e.TransferHook != nil && e.TransferHook.Program == testKey("hook program").String()
		},
		soulboundMint: func(e chain.SVMMintExtensions) bool { return e.NonTransferable },
		frozenDefMint: func(e chain.SVMMintExtensions) bool { return e.DefaultAccountState == "frozen" },
		pausedMint: func(e chain.SVMMintExtensions) bool {
			ib := e.InterestBearing
			return e.Pausable != nil && e.Pausable.Paused && ib != nil && ib.CurrentRate == 425 && ib.PreUpdateAverageRate == 350 &&
				ib.InitTimestamp == 1_700_000_000 && ib.LastUpdateTimestamp == 1_720_000_000 && e.Has("ScaledUiAmount")
		},
	} {
		program, data := fixtureData(t, k)
		m, err := parseMint(program, data)
		if err != nil || !check(m.ext) {
			t.Errorf("mint %s: %+v, %v", k, m.ext, err)
		}
	}
}

func TestFee(t *testing.T) {
	// Token-2022's calculate_fee: ceil(amount × bps / 10,000), at most the maximum fee.
	for _, tc := range []struct {
		f      svm.FeeSchedule
		amount uint64
		want   uint64
	}{
		{svm.FeeSchedule{BasisPoints: 0, MaximumFee: 100}, 1_000_000, 0},
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 0, 0},
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 1, 1}, // rounded up
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 100, 2},
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 10_000, 150},
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 10_001, 151},
		{svm.FeeSchedule{BasisPoints: 150, MaximumFee: 5_000_000}, 1_000_000_000, 5_000_000}, // capped
		{svm.FeeSchedule{BasisPoints: 10_000, MaximumFee: ^uint64(0)}, ^uint64(0), ^uint64(0)},
		{svm.FeeSchedule{BasisPoints: 65_535, MaximumFee: 7}, ^uint64(0), 7},
	} {
		if got := tc.f.Fee(tc.amount); got != tc.want {
			t.Errorf("%+v.Fee(%d) = %d, want %d", tc.f, tc.amount, got, tc.want)
		}
	}
}

func TestParseTokenAccounts(t *testing.T) {
	k := ata(sender, usdcMint, tokenProgramID)
	program, data := fixtureData(t, k)
	a, err := parseTokenAccount(program, data)
	if err != nil || a.mint != usdcMint || a.owner != sender || a.amount != senderUSDC || a.frozen || a.native {
		t.Fatalf("sender's USDC = %+v, %v", a, err)
	}
	var theirs token.Account
	if err := bin.NewBinDecoder(data).Decode(&theirs); err != nil || theirs.Amount != a.amount || theirs.Owner != a.owner {
		t.Errorf("solana-go decodes %+v, %v", theirs, err)
	}
	program, data = fixtureData(t, ata(owners[5], usdcMint, tokenProgramID))
	if a, err := parseTokenAccount(program, data); err != nil || !a.frozen {
		t.Errorf("owner 5's frozen USDC = %+v, %v", a, err)
	}
	program, data = fixtureData(t, ata(owners[1], wsolMint, tokenProgramID))
	if a, err := parseTokenAccount(program, data); err != nil || !a.native || a.nativeReserve != 2_039_280 || a.amount != owner1WrappedSOL {
		t.Errorf("owner 1's wrapped SOL = %+v, %v", a, err)
	}
	program, data = fixtureData(t, ata(owners[2], usdcMint, tokenProgramID))
	if a, err := parseTokenAccount(program, data); err != nil || a.delegate != owners[4].String() || a.amount != 0 {
		t.Errorf("owner 2's delegated USDC = %+v, %v", a, err)
	}
	program, data = fixtureData(t, ata(sender, pyusdMint, token2022ID))
	a, err = parseTokenAccount(program, data)
	if err != nil || a.mint != pyusdMint || a.amount != senderPYUSD || !slices.Equal(a.extTypes, []string{"TransferFeeAmount", "ImmutableOwner", "TransferHookAccount"}) {
		t.Errorf("sender's PYUSD = %+v, %v", a, err)
	}
	// A mint is not a token account, nor the reverse, nor a multisig either.
	program, data = fixtureData(t, pyusdMint)
	if _, err := parseTokenAccount(program, data); !errors.Is(err, errLayout) {
		t.Errorf("PYUSD mint parsed as a token account: %v", err)
	}
	program, data = fixtureData(t, ata(sender, pyusdMint, token2022ID))
	if _, err := parseMint(program, data); !errors.Is(err, errLayout) {
		t.Errorf("a Token-2022 account parsed as a mint: %v", err)
	}
	program, data = fixtureData(t, testKey("a multisig"))
	if _, err := parseTokenAccount(program, data); !errors.Is(err, errLayout) {
		t.Errorf("a multisig parsed as a token account: %v", err)
	}
	if _, err := parseMint(program, data); !errors.Is(err, errLayout) {
		t.Errorf("a multisig parsed as a mint: %v", err)
	}
}

func TestParseMetaplex(t *testing.T) {
	_, data := fixtureData(t, metadataPDA(usdcMint))
	md, err := parseMetaplex(usdcMint, data)
	if err != nil || md.Name != "USD Coin" || md.Symbol != "USDC" || md.URI != "" || !md.Mutable || md.Source != "metaplex" ||
		md.UpdateAuthority != "2wmVCSfPxGPjrnMMn7rchp4uaeoTqN39mXFC2zhPdri9" {
		t.Errorf("USDC metadata = %+v, %v", md, err)
	}
	if _, err := parseMetaplex(pyusdMint, data); !errors.Is(err, errLayout) {
		t.Errorf("metadata of another mint: %v", err)
	}
	// Mutability: the byte after primary_sale_happened.
	immutable := metaplexAccount(usdcMint, usdcMint, "A", "B", "C", false)
	if md, err := parseMetaplex(usdcMint, immutable); err != nil || md.Mutable {
		t.Errorf("immutable metadata = %+v, %v", md, err)
	}
	// An old account that ends after the uri keeps the defaults.
	if md, err := parseMetaplex(usdcMint, data[:1+32+32+36+14+204]); err != nil || md.Name != "USD Coin" || !md.Mutable {
		t.Errorf("short metadata = %+v, %v", md, err)
	}
}

func TestParseTLV(t *testing.T) {
	one := ext(extMintCloseAuthority, make([]byte, 32))
	for _, tc := range []struct {
		name  string
		data  []byte
		types []uint16
		bad   bool
	}{
		{"empty", nil, nil, false},
		{"one", one, []uint16{3}, false},
		{"zero fill after", append(slices.Clone(one), 0, 0, 0, 0, 0), []uint16{3}, false},
		{"a trailing byte", append(slices.Clone(one), 7), []uint16{3}, false},
		{"type without length", append(slices.Clone(one), 7, 0), nil, true},
		{"value past the end", append(slices.Clone(one), 12, 0, 32, 0, 1), nil, true},
		{"given twice", append(slices.Clone(one), one...), nil, true},
		{"unknown type", ext(300, []byte{1, 2}), []uint16{300}, false},
	} {
		tlvs, err := parseTLV(tc.data)
		if tc.bad {
			if !errors.Is(err, errLayout) {
				t.Errorf("%s: %v, want a layout error", tc.name, err)
			}
			continue
		}
		var got []uint16
		for _, x := range tlvs {
			got = append(got, x.typ)
		}
		if err != nil || !slices.Equal(got, tc.types) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.types)
		}
	}
	// A known extension shorter than its layout fails the mint; unknown types are named.
	base := encodeBin(t, token.Mint{Decimals: 2, IsInitialized: true})
	if _, err := parseMint(token2022ID, withExtensions(base, accountTypeMt, ext(extTransferFeeConfig, make([]byte, 100)))); !errors.Is(err, errLayout) {
		t.Errorf("a short TransferFeeConfig: %v", err)
	}
	m, err := parseMint(token2022ID, withExtensions(base, accountTypeMt, ext(300, []byte{1})))
	if err != nil || !slices.Equal(m.ext.Types, []string{"ExtensionType(300)"}) {
		t.Errorf("unknown extension: %+v, %v", m.ext, err)
	}
	// Non-zero padding, an uninitialized mint, a bad COption tag.
	padded := withExtensions(base, accountTypeMt)
	padded[100] = 1
	if _, err := parseMint(token2022ID, padded); !errors.Is(err, errLayout) {
		t.Errorf("non-zero padding: %v", err)
	}
	if _, err := parseMint(tokenProgramID, encodeBin(t, token.Mint{Decimals: 2})); !errors.Is(err, errLayout) {
		t.Errorf("uninitialized mint: %v", err)
	}
	badTag := slices.Clone(base)
	badTag[0] = 2
	if _, err := parseMint(tokenProgramID, badTag); !errors.Is(err, errLayout) {
		t.Errorf("COption tag 2: %v", err)
	}
}

// fuzzSeeds are fixture account datas, the seeds of the parser fuzz targets.
func fuzzSeeds(f *testing.F) {
	var keyed []struct {
		Pubkey  string         `json:"pubkey"`
		Account fixtureAccount `json:"account"`
	}
	readJSON(f, "testdata/accounts.json", &keyed)
	for _, a := range keyed {
		f.Add(a.Account.Owner == Token2022Program, a.Account.bytes(f))
	}
}

// FuzzParseMint: the mint and TLV extension parser never panics on any data, and what it
// accepts has the base layout's decimals.
func FuzzParseMint(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, t22 bool, data []byte) {
		program := tokenProgramID
		if t22 {
			program = token2022ID
		}
		m, err := parseMint(program, data)
		if err != nil {
			if !errors.Is(err, errLayout) {
				t.Fatalf("error %v is not a layout error", err)
			}
			return
		}
		if m.decimals != int(data[44]) || len(m.ext.Types) != len(m.extTypes) {
			t.Fatalf("decimals %d, byte 44 is %d", m.decimals, data[44])
		}
		_ = mintFrom(usdcMint, &rpcAccount{Owner: program.String(), Data: [2]string{encodeB64(data), "base64"}}, nil, 800, 1)
	})
}

// FuzzParseTokenAccount: never panics; what it accepts has the base layout's mint and owner.
func FuzzParseTokenAccount(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, t22 bool, data []byte) {
		program := tokenProgramID
		if t22 {
			program = token2022ID
		}
		a, err := parseTokenAccount(program, data)
		if err != nil {
			if !errors.Is(err, errLayout) {
				t.Fatalf("error %v is not a layout error", err)
			}
			return
		}
		if !bytes.Equal(a.mint[:], data[:32]) || !bytes.Equal(a.owner[:], data[32:64]) {
			t.Fatal("mint or owner not at offsets 0 and 32")
		}
	})
}

// FuzzParseMetaplex: never panics on any data.
func FuzzParseMetaplex(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, _ bool, data []byte) {
		if _, err := parseMetaplex(usdcMint, data); err != nil && !errors.Is(err, errLayout) {
			t.Fatalf("error %v is not a layout error", err)
		}
	})
}

// FuzzDecodeTx: the transaction decoding confirm relies on never panics.
func FuzzDecodeTx(f *testing.F) {
	f.Add(mustTxBytes(f, v0Transfer(f)))
	f.Add(mustTxBytes(f, failedTransfer(f)))
	f.Fuzz(func(t *testing.T, data []byte) {
		tx, err := decodeTx(data)
		if err != nil {
			return
		}
		keys := slices.Clone(tx.Message.AccountKeys)
		for range tx.Message.NumLookups() {
			keys = append(keys, sol.PublicKey{})
		}
		_, _ = resolveInstructions(tx.Message.Instructions, keys)
	})
}

func encodeB64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func mustTxBytes(t testing.TB, tx *sol.Transaction) []byte {
	b, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
