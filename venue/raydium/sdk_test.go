package raydium_test

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/venue/raydium"
)

// What @raydium-io/raydium-sdk-v2 derives, builds and decodes (testdata/sdk_instructions.json and
// testdata/sdk_layouts.json, written by testdata/sdk/gen.sh), and our code held to it.

type sdkMeta struct {
	Pubkey     string `json:"pubkey"`
	IsSigner   bool   `json:"isSigner"`
	IsWritable bool   `json:"isWritable"`
}

type sdkIx struct {
	ProgramID string    `json:"programId"`
	Keys      []sdkMeta `json:"keys"`
	Data      string    `json:"data"` // hex
}

type sdkMint struct {
	Address, Program string
	Decimals         uint8
}

type sdkPDA struct {
	Address string `json:"address"`
	Nonce   uint8  `json:"nonce"`
}

type sdkPool struct {
	Name             string  `json:"name"`
	Mint0            sdkMint `json:"mint0"`
	Mint1            sdkMint `json:"mint1"`
	PoolKeypairLabel *string `json:"poolKeypairLabel"`
	PoolKeypair      *string `json:"poolKeypair"`
	Keys             struct {
		Pool, PoolPda, Authority, LpMint, Vault0, Vault1, Observation string
	} `json:"keys"`
	PDAs     map[string]sdkPDA `json:"pdas"`
	Accounts struct {
		Creator0, Creator1, CreatorLp, Trader0, Trader1, CreatorLpByRaydium string
	} `json:"accounts"`
}

type sdkInstructions struct {
	About        string            `json:"about"`
	Packages     map[string]string `json:"packages"`
	ProgramID    string            `json:"programId"`
	SDKConstants map[string]string `json:"sdkConstants"`
	Wallets      struct{ Creator, Trader string }
	Config       struct {
		Index         uint16 `json:"index"`
		Address       string `json:"address"`
		Authority     string `json:"authority"`
		AuthorityBump uint8  `json:"authorityBump"`
	} `json:"config"`
	ConfigsByIndex []struct {
		Index   uint16 `json:"index"`
		Address string `json:"address"`
		Nonce   uint8  `json:"nonce"`
	} `json:"configsByIndex"`
	Pools        []sdkPool `json:"pools"`
	Instructions []struct {
		Pool       string            `json:"pool"`
		Op         string            `json:"op"`
		ZeroForOne bool              `json:"zeroForOne"`
		Args       map[string]string `json:"args"`
		Expect     sdkIx             `json:"expect"`
	} `json:"instructions"`
}

func loadJSON(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

func pk(t *testing.T, s string) raydium.Pubkey {
	t.Helper()
	k, err := raydium.ParsePubkey(s)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// walletKey is the scenario's wallet of a label: the ed25519 key of seed
// sha256("raydium venue test/" + label), as gen.mjs derives it.
func walletKey(label string) raydium.Pubkey {
	seed := sha256.Sum256([]byte("raydium venue test/" + label))
	return raydium.Pubkey(ed25519.NewKeyFromSeed(seed[:]).Public().(ed25519.PublicKey))
}

func loadSDKInstructions(t *testing.T) *sdkInstructions {
	t.Helper()
	var s sdkInstructions
	loadJSON(t, "testdata/sdk_instructions.json", &s)
	if s.Packages["@raydium-io/raydium-sdk-v2"] != "0.2.73-alpha" {
		t.Fatalf("expectations from SDK %q, want the pinned 0.2.73-alpha", s.Packages["@raydium-io/raydium-sdk-v2"])
	}
	if len(s.Pools) != 3 || len(s.Instructions) != 27 || len(s.ConfigsByIndex) < 10 {
		t.Fatalf("%d pools, %d instructions, %d configs: the expectations shrank", len(s.Pools), len(s.Instructions), len(s.ConfigsByIndex))
	}
	if walletKey("creator").String() != s.Wallets.Creator || walletKey("trader").String() != s.Wallets.Trader {
		t.Fatalf("the scenario's wallets are not the keys of their labels")
	}
	return &s
}

// TestSDKPDAs: the program ids and fixed accounts are the SDK's constants, and every address we
// derive is the one the SDK derives: the authority and its bump, AmmConfigs of indexes across the
// u16 (big-endian seeds), each pool's state PDA, LP mint, vaults and observation (at the PDA and
// at a keypair's address), and associated token accounts of SPL Token and Token-2022 mints.
func TestSDKPDAs(t *testing.T) {
	s := loadSDKInstructions(t)
	for name, want := range map[string]raydium.Pubkey{
		"CREATE_CPMM_POOL_PROGRAM": raydium.ProgramID, "CREATE_CPMM_POOL_AUTH": raydium.Authority(),
		"CREATE_CPMM_POOL_FEE_ACC": raydium.CreatePoolFeeReceiver, "TOKEN_PROGRAM_ID": raydium.TokenProgram,
		"TOKEN_2022_PROGRAM_ID": raydium.Token2022Program,
	} {
		if s.SDKConstants[name] != want.String() {
			t.Errorf("SDK %s = %s, ours %s", name, s.SDKConstants[name], want)
		}
	}
	if s.ProgramID != raydium.ProgramID.String() {
		t.Errorf("program id %s, ours %s", s.ProgramID, raydium.ProgramID)
	}
	if raydium.Authority().String() != s.Config.Authority || raydium.AuthorityBump() != s.Config.AuthorityBump {
		t.Errorf("authority %s bump %d, SDK %s bump %d", raydium.Authority(), raydium.AuthorityBump(), s.Config.Authority, s.Config.AuthorityBump)
	}
	for _, c := range s.ConfigsByIndex {
		if got := raydium.AmmConfigAddress(c.Index); got.String() != c.Address {
			t.Errorf("AmmConfigAddress(%d) = %s, SDK %s", c.Index, got, c.Address)
		}
	}
	config := pk(t, s.Config.Address)
	signers := 0
	for _, p := range s.Pools {
		m0, m1 := pk(t, p.Mint0.Address), pk(t, p.Mint1.Address)
		var at raydium.Pubkey
		if p.PoolKeypair != nil {
			at = walletKey(*p.PoolKeypairLabel)
			if at.String() != *p.PoolKeypair {
				t.Fatalf("pool %s: keypair %s is not its label's key %s", p.Name, *p.PoolKeypair, at)
			}
			signers++
		}
		k := raydium.DerivePoolKeys(config, m0, m1, at)
		for _, c := range []struct {
			what      string
			got, want string
		}{
			{"pool", k.Pool.String(), p.Keys.Pool}, {"pool PDA", raydium.PoolAddress(config, m0, m1).String(), p.Keys.PoolPda},
			{"authority", k.Authority.String(), p.Keys.Authority}, {"LP mint", k.LPMint.String(), p.Keys.LpMint},
			{"vault 0", k.Vault0.String(), p.Keys.Vault0}, {"vault 1", k.Vault1.String(), p.Keys.Vault1},
			{"observation", k.Observation.String(), p.Keys.Observation}, {"config", k.Config.String(), s.Config.Address},
			{"pool PDA (getCpmmPdaPoolId)", raydium.PoolAddress(config, m0, m1).String(), p.PDAs["poolPda"].Address},
			{"LP mint (getPdaLpMint)", raydium.LPMintAddress(k.Pool).String(), p.PDAs["lpMint"].Address},
			{"vault 0 (getPdaVault)", raydium.VaultAddress(k.Pool, m0).String(), p.PDAs["vault0"].Address},
			{"vault 1 (getPdaVault)", raydium.VaultAddress(k.Pool, m1).String(), p.PDAs["vault1"].Address},
			{"observation (getPdaObservationId)", raydium.ObservationAddress(k.Pool).String(), p.PDAs["observation"].Address},
			{"creator's token 0 account", raydium.AssociatedTokenAccount(walletKey("creator"), m0, pk(t, p.Mint0.Program)).String(), p.Accounts.Creator0},
			{"creator's token 1 account", raydium.AssociatedTokenAccount(walletKey("creator"), m1, pk(t, p.Mint1.Program)).String(), p.Accounts.Creator1},
			{"creator's LP account", raydium.AssociatedTokenAccount(walletKey("creator"), k.LPMint, raydium.TokenProgram).String(), p.Accounts.CreatorLp},
			{"creator's LP account (Raydium's getATAAddress)", raydium.AssociatedTokenAccount(walletKey("creator"), k.LPMint, raydium.TokenProgram).String(), p.Accounts.CreatorLpByRaydium},
			{"trader's token 0 account", raydium.AssociatedTokenAccount(walletKey("trader"), m0, pk(t, p.Mint0.Program)).String(), p.Accounts.Trader0},
			{"trader's token 1 account", raydium.AssociatedTokenAccount(walletKey("trader"), m1, pk(t, p.Mint1.Program)).String(), p.Accounts.Trader1},
		} {
			if c.got != c.want {
				t.Errorf("pool %s: %s = %s, SDK %s", p.Name, c.what, c.got, c.want)
			}
		}
	}
	if signers == 0 {
		t.Error("no pool at a keypair's address")
	}
}

// ours builds the instruction of the scenario's step with our encoders.
func ours(t *testing.T, s *sdkInstructions, i int) raydium.Instruction {
	t.Helper()
	step := s.Instructions[i]
	var p *sdkPool
	for j := range s.Pools {
		if s.Pools[j].Name == step.Pool {
			p = &s.Pools[j]
		}
	}
	arg := func(name string) uint64 {
		v, err := strconv.ParseUint(step.Args[name], 10, 64)
		if err != nil {
			t.Fatalf("step %d: argument %s: %v", i, name, err)
		}
		return v
	}
	config, creator, trader := pk(t, s.Config.Address), walletKey("creator"), walletKey("trader")
	m0, m1 := pk(t, p.Mint0.Address), pk(t, p.Mint1.Address)
	var at raydium.Pubkey
	if p.PoolKeypairLabel != nil {
		at = walletKey(*p.PoolKeypairLabel)
	}
	k := raydium.DerivePoolKeys(config, m0, m1, at)
	// the pool as initialize writes it: what the swap and liquidity accounts are read from
	state := raydium.PoolState{AmmConfig: config, PoolCreator: creator, Token0Vault: k.Vault0, Token1Vault: k.Vault1, LPMint: k.LPMint,
		Token0Mint: m0, Token1Mint: m1, Token0Program: pk(t, p.Mint0.Program), Token1Program: pk(t, p.Mint1.Program), ObservationKey: k.Observation}
	creatorLP := raydium.AssociatedTokenAccount(creator, k.LPMint, raydium.TokenProgram)
	switch step.Op {
	case "initialize":
		keys, ix, err := raydium.Initialize(raydium.InitializeAccounts{Creator: creator, Config: config, Mint0: m0, Mint1: m1,
			Token0Program: state.Token0Program, Token1Program: state.Token1Program, Creator0: pk(t, p.Accounts.Creator0),
			Creator1: pk(t, p.Accounts.Creator1), Pool: at}, arg("amount0"), arg("amount1"), arg("openTime"))
		if err != nil {
			t.Fatal(err)
		}
		if keys != k {
			t.Errorf("step %d: initialize's keys %+v, DerivePoolKeys %+v", i, keys, k)
		}
		return ix
	case "deposit", "withdraw":
		a := state.LiquidityAccounts(k.Pool, creator, creatorLP, pk(t, p.Accounts.Creator0), pk(t, p.Accounts.Creator1))
		if step.Op == "deposit" {
			return raydium.Deposit(a, arg("lp"), arg("maximum0"), arg("maximum1"))
		}
		return raydium.Withdraw(a, arg("lp"), arg("minimum0"), arg("minimum1"))
	case "swap_base_input", "swap_base_output":
		in, out := pk(t, p.Accounts.Trader0), pk(t, p.Accounts.Trader1)
		if !step.ZeroForOne {
			in, out = out, in
		}
		a := state.SwapAccounts(k.Pool, trader, step.ZeroForOne, in, out)
		if step.Op == "swap_base_input" {
			return raydium.SwapBaseInput(a, arg("amountIn"), arg("minimumAmountOut"))
		}
		return raydium.SwapBaseOutput(a, arg("maxAmountIn"), arg("amountOut"))
	}
	t.Fatalf("step %d: unknown op %s", i, step.Op)
	return raydium.Instruction{}
}

// sdkCreatorReadonly is where our encoders and the SDK's differ by design: the SDK marks
// initialize's creator (account 0) read-only, while CPMM declares it `#[account(mut)]` (it pays
// for the new accounts and the pool creation fee) and our program checks it (need_mut, Anchor's
// ConstraintMut, 2000). In a transaction the creator usually is the fee payer, so the message
// makes it writable anyway and the SDK's instruction works; with another fee payer it fails, as
// TestExecute shows on the program. Ours follows the program.
func sdkCreatorReadonly(op string, index int, got raydium.AccountMeta, want sdkMeta) bool {
	return op == "initialize" && index == 0 && got.Pubkey.String() == want.Pubkey && got.IsSigner && want.IsSigner &&
		got.IsWritable && !want.IsWritable
}

// TestSDKInstructions: every encoder builds, byte for byte, what the SDK's make*Instruction
// builds for the same accounts and amounts (program id, account metas with their signer and
// writable flags, data): initialize at the pool PDA and at a keypair's address (which signs),
// deposit, withdraw, swap_base_input and swap_base_output both ways, SPL Token and Token-2022
// mints on either side, zero and u64-max arguments. The one difference is the creator's
// writable flag (sdkCreatorReadonly).
func TestSDKInstructions(t *testing.T) {
	s := loadSDKInstructions(t)
	ops := map[string]int{}
	for i, step := range s.Instructions {
		ops[step.Op]++
		name := fmt.Sprintf("step %d (%s on pool %s)", i, step.Op, step.Pool)
		got := ours(t, s, i)
		want := step.Expect
		if got.ProgramID.String() != want.ProgramID {
			t.Errorf("%s: program %s, SDK %s", name, got.ProgramID, want.ProgramID)
		}
		if h := hex.EncodeToString(got.Data); h != want.Data {
			t.Errorf("%s: data\n  ours %s\n  SDK  %s", name, h, want.Data)
		}
		if len(got.Accounts) != len(want.Keys) {
			t.Errorf("%s: %d accounts, SDK %d", name, len(got.Accounts), len(want.Keys))
			continue
		}
		for j, m := range got.Accounts {
			w := want.Keys[j]
			if sdkCreatorReadonly(step.Op, j, m, w) {
				continue
			}
			if m.Pubkey.String() != w.Pubkey || m.IsSigner != w.IsSigner || m.IsWritable != w.IsWritable {
				t.Errorf("%s: account %d = %s signer=%v writable=%v, SDK %s signer=%v writable=%v",
					name, j, m.Pubkey, m.IsSigner, m.IsWritable, w.Pubkey, w.IsSigner, w.IsWritable)
			}
		}
		if step.Op == "initialize" && !sdkCreatorReadonly(step.Op, 0, got.Accounts[0], want.Keys[0]) {
			t.Errorf("%s: the creator's flags are ours %+v, SDK %+v: the known difference is gone, update sdkCreatorReadonly", name, got.Accounts[0], want.Keys[0])
		}
	}
	for _, op := range []string{"initialize", "deposit", "withdraw", "swap_base_input", "swap_base_output"} {
		if ops[op] == 0 {
			t.Errorf("no %s in the scenario", op)
		}
	}
}

type sdkLayouts struct {
	Packages map[string]string `json:"packages"`
	Accounts []struct {
		Name     string         `json:"name"`
		Address  string         `json:"address"`
		Layout   string         `json:"layout"`
		Data     string         `json:"data"` // base64
		SDK      map[string]any `json:"sdk"`
		SDKError string         `json:"sdkError"`
	} `json:"accounts"`
}

func str(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case float64: // the SDK's u8 and u16 figures are JSON numbers
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	}
	return fmt.Sprintf("%T %v", v, v)
}

func u64s(v uint64) string { return strconv.FormatUint(v, 10) }

// ammConfigFields are our AmmConfig's fields under the SDK's CpmmConfigInfoLayout names.
func ammConfigFields(c raydium.AmmConfig) map[string]string {
	return map[string]string{"bump": strconv.Itoa(int(c.Bump)), "disableCreatePool": strconv.FormatBool(c.DisableCreatePool),
		"index": strconv.Itoa(int(c.Index)), "tradeFeeRate": u64s(c.TradeFeeRate), "protocolFeeRate": u64s(c.ProtocolFeeRate),
		"fundFeeRate": u64s(c.FundFeeRate), "createPoolFee": u64s(c.CreatePoolFee), "protocolOwner": c.ProtocolOwner.String(),
		"fundOwner": c.FundOwner.String(), "creatorFeeRate": u64s(c.CreatorFeeRate)}
}

// poolStateFields are our PoolState's fields under the SDK's CpmmPoolInfoLayout names.
func poolStateFields(p raydium.PoolState) map[string]string {
	return map[string]string{"configId": p.AmmConfig.String(), "poolCreator": p.PoolCreator.String(), "vaultA": p.Token0Vault.String(),
		"vaultB": p.Token1Vault.String(), "mintLp": p.LPMint.String(), "mintA": p.Token0Mint.String(), "mintB": p.Token1Mint.String(),
		"mintProgramA": p.Token0Program.String(), "mintProgramB": p.Token1Program.String(), "observationId": p.ObservationKey.String(),
		"bump": strconv.Itoa(int(p.AuthBump)), "status": strconv.Itoa(int(p.Status)), "lpDecimals": strconv.Itoa(int(p.LPMintDecimals)),
		"mintDecimalA": strconv.Itoa(int(p.Mint0Decimals)), "mintDecimalB": strconv.Itoa(int(p.Mint1Decimals)), "lpAmount": u64s(p.LPSupply),
		"protocolFeesMintA": u64s(p.ProtocolFeesToken0), "protocolFeesMintB": u64s(p.ProtocolFeesToken1), "fundFeesMintA": u64s(p.FundFeesToken0),
		"fundFeesMintB": u64s(p.FundFeesToken1), "openTime": u64s(p.OpenTime), "epoch": u64s(p.RecentEpoch), "feeOn": strconv.Itoa(int(p.CreatorFeeOn)),
		"enableCreatorFee": strconv.FormatBool(p.EnableCreatorFee), "creatorFeesMintA": u64s(p.CreatorFeesToken0), "creatorFeesMintB": u64s(p.CreatorFeesToken1)}
}

// TestSDKLayouts: AmmConfig and PoolState data decode with our layouts to exactly what the SDK's
// layouts decode, field by field: synthetic accounts with a distinct value in every field, and
// the real accounts of testdata/accounts.json (the local validator's configs, the pools our
// program's initialize wrote, after swaps, deposits and withdrawals by TestExecute -write-accounts). Where
// they differ by design the test says so:
//
//   - AmmConfig's creatorFeeShareRate: the SDK reads the u64 after creator_fee_rate as a
//     creator_fee_share_rate of a later CPMM; the CPMM our program follows (and we) has padding
//     there, which the program writes zero: real configs hold 0 there.
//   - a bool of 2: the SDK's Borsh bool throws. Our AmmConfig refuses it too (ErrLayout: Borsh);
//     PoolState is a zero-copy account whose enable_creator_fee the program reads as "not zero",
//     and so do we.
func TestSDKLayouts(t *testing.T) {
	var s sdkLayouts
	loadJSON(t, "testdata/sdk_layouts.json", &s)
	if s.Packages["@raydium-io/raydium-sdk-v2"] != "0.2.73-alpha" {
		t.Fatalf("expectations from SDK %q", s.Packages["@raydium-io/raydium-sdk-v2"])
	}
	counts := map[string]int{}
	for _, a := range s.Accounts {
		data, err := base64.StdEncoding.DecodeString(a.Data)
		if err != nil {
			t.Fatal(err)
		}
		kind := "synthetic"
		if !strings.HasPrefix(a.Name, "synthetic") {
			kind = "real"
		}
		var got map[string]string
		switch a.Layout {
		case "AmmConfig":
			c, err := raydium.DecodeAmmConfig(data)
			if a.SDKError != "" {
				if !errors.Is(err, raydium.ErrLayout) || data[9] < 2 {
					t.Errorf("%s: the SDK throws %q, we decode %+v, %v", a.Name, a.SDKError, c, err)
				}
				counts[a.Layout+" refused"]++
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", a.Name, err)
				continue
			}
			got = ammConfigFields(c)
			share := str(a.SDK["creatorFeeShareRate"])
			delete(a.SDK, "creatorFeeShareRate") // our padding: see above
			if kind == "real" && share != "0" {
				t.Errorf("%s: a real config with creatorFeeShareRate %s", a.Name, share)
			}
		case "PoolState":
			p, err := raydium.DecodePoolState(data)
			if err != nil {
				t.Errorf("%s: %v", a.Name, err)
				continue
			}
			if a.SDKError != "" {
				if data[390] < 2 || !p.EnableCreatorFee {
					t.Errorf("%s: the SDK throws %q, we decode enable_creator_fee=%v from %d", a.Name, a.SDKError, p.EnableCreatorFee, data[390])
				}
				counts[a.Layout+" refused by the SDK"]++
				continue
			}
			got = poolStateFields(p)
			if kind == "real" && (p.LPSupply == 0 || p.Token0Mint.IsZero() || !p.Token0Mint.Less(p.Token1Mint)) {
				t.Errorf("%s: not a pool initialize wrote: %+v", a.Name, p)
			}
		default:
			t.Fatalf("%s: unknown layout %s", a.Name, a.Layout)
		}
		counts[a.Layout+" "+kind]++
		for k, v := range a.SDK {
			if g, ok := got[k]; !ok {
				t.Errorf("%s: the SDK decodes %s = %v, which we do not", a.Name, k, v)
			} else if g != str(v) {
				t.Errorf("%s: %s = %s, SDK %s", a.Name, k, g, str(v))
			}
		}
		for k := range got {
			if _, ok := a.SDK[k]; !ok {
				t.Errorf("%s: we decode %s, which the SDK does not", a.Name, k)
			}
		}
		if kind == "synthetic" { // a distinct value in every field: a shifted offset cannot pass unseen
			seen := map[string]string{}
			for k, v := range got {
				if len(v) > 3 && seen[v] != "" {
					t.Errorf("%s: %s and %s are both %s: the synthetic data is not distinct", a.Name, k, seen[v], v)
				}
				seen[v] = k
			}
		}
	}
	t.Logf("accounts: %v", counts)
	for _, k := range []string{"AmmConfig synthetic", "PoolState synthetic", "AmmConfig real", "PoolState real", "AmmConfig refused", "PoolState refused by the SDK"} {
		if counts[k] == 0 {
			t.Errorf("no %s account", k)
		}
	}
}
