package chain

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// validDoc is a minimal valid configuration with one chain of each family, used as the base the
// error cases mutate. Addresses other than well-known constants are examples.
const validDoc = `{
  "chains": {
    "base": {
      "rpcUrls": ["https://mainnet.base.org"],
      "wrappedNative": "0x4200000000000000000000000000000000000006",
      "usdStablecoins": [{"address": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "decimals": 6}],
      "venues": {
        "uniswap-v2": {"factory": "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6", "router": "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24"},
        "uniswap-v3": {"factory": "0x33128a8fC17869897dcE68Ed026d694621f6FDfD", "quoter": "0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a"}
      }
    },
    "arc": {
      "rpcUrls": ["http://127.0.0.1:8545"],
      "chainId": 5042002,
      "network": "devnet",
      "wrappedNative": "0x1000000000000000000000000000000000000001",
      "usdStablecoins": [{"address": "0x3600000000000000000000000000000000000000", "decimals": 6}]
    },
    "solana": {
      "rpcUrls": ["https://api.mainnet-beta.solana.com"],
      "usdStablecoins": [{"address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "decimals": 6}],
      "venues": {"orca": {"factory": "whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc"}}
    }
  }
}`

const (
	evmA = "0x1000000000000000000000000000000000000009"
	solA = "675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8"
)

// doc returns validDoc as a generic tree to mutate.
func doc(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(validDoc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// at returns the object at a dotted path of doc (keys only).
func at(m map[string]any, path string) map[string]any {
	for k := range strings.SplitSeq(path, ".") {
		m = m[k].(map[string]any)
	}
	return m
}

func TestLoadConfigExample(t *testing.T) {
	cfg, err := LoadConfig("testdata/chains.example.json")
	if err != nil {
		t.Fatal(err)
	}
	base := cfg.Chains["base"]
	if base.Network != Mainnet || base.ChainID != 8453 || base.Confirmations != 10 || len(base.RPCURLs) != 2 {
		t.Errorf("base = %+v", base)
	}
	if v := base.Venues["uniswap-v3"]; v.Quoter != "0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a" || v.FeeBps != 0 || len(v.InitCodeHash) != 66 ||
		v.PositionManager != basePositionManager || v.Staker != baseV3Staker || v.Migrator != baseV3Migrator {
		t.Errorf("base uniswap-v3 = %+v", v)
	}
	dev := cfg.Chains["ethereum"]
	if dev.Network != Devnet || dev.ChainID != 31337 || dev.Confirmations != 2 || dev.Multicall3 != CanonicalMulticall3 {
		t.Errorf("ethereum devnet = %+v", dev)
	}
	if fee := dev.Venues["uniswap-v2"].FeeBps; fee != DefaultUniswapV2FeeBps {
		t.Errorf("default feeBps = %d", fee)
	}
	sol := cfg.Chains["solana"]
	if sol.Network != Mainnet || sol.ChainID != 0 || sol.Confirmations != 32 || sol.WrappedNative != WrappedSOL || sol.Multicall3 != "" || len(sol.Venues) != 3 {
		t.Errorf("solana = %+v", sol)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate of a loaded config: %v", err)
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	if _, err := LoadConfig("testdata/absent.json"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want ErrNotExist", err)
	}
}

func TestParseConfigDefaults(t *testing.T) {
	cfg, err := ParseConfig([]byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	base := cfg.Chains["base"]
	if base.Network != Mainnet || base.ChainID != 8453 || base.Confirmations != 10 || base.Multicall3 != CanonicalMulticall3 || base.StartBlock != 0 {
		t.Errorf("base defaults = %+v", base)
	}
	if fee := base.Venues["uniswap-v2"].FeeBps; fee != 30 {
		t.Errorf("uniswap-v2 feeBps = %d, want 30", fee)
	}
	if c := cfg.Chains["arc"].Confirmations; c != 0 {
		t.Errorf("devnet confirmations = %d, want 0", c)
	}
	for _, tc := range []struct {
		name string
		want int
	}{{"ethereum", 12}, {"base", 10}, {"bsc", 15}, {"robinhood", 10}, {"arc", 1}, {"solana", 32}} {
		if got := DefaultConfirmations(tc.name, Mainnet); got != tc.want {
			t.Errorf("DefaultConfirmations(%s) = %d, want %d", tc.name, got, tc.want)
		}
	}

	// Explicit zeros are kept, not defaulted.
	m := doc(t)
	at(m, "chains.base")["confirmations"] = 0
	at(m, "chains.base.venues.uniswap-v2")["feeBps"] = 0
	data, _ := json.Marshal(m)
	if cfg, err = ParseConfig(data); err != nil {
		t.Fatal(err)
	}
	if c := cfg.Chains["base"]; c.Confirmations != 0 || c.Venues["uniswap-v2"].FeeBps != 0 {
		t.Errorf("explicit zeros lost: %+v", c)
	}
}

// TestParseConfigStakingRewardsFactory: uniswap-v2's optional stakingRewardsFactory is read from the
// file, kept as written, absent by default, and survives a JSON round trip.
func TestParseConfigStakingRewardsFactory(t *testing.T) {
	cfg, err := ParseConfig([]byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	if f := cfg.Chains["base"].Venues["uniswap-v2"].StakingRewardsFactory; f != "" {
		t.Errorf("stakingRewardsFactory = %q without one in the file", f)
	}
	const farms = "0x3032Ab3Fa8C01d786D29dAdE018d7f2017918e12" // an example address
	m := doc(t)
	at(m, "chains.base.venues.uniswap-v2")["stakingRewardsFactory"] = farms
	data, _ := json.Marshal(m)
	if cfg, err = ParseConfig(data); err != nil {
		t.Fatal(err)
	}
	v2 := cfg.Chains["base"].Venues["uniswap-v2"]
	if v2.StakingRewardsFactory != farms {
		t.Fatalf("stakingRewardsFactory = %q, want %s", v2.StakingRewardsFactory, farms)
	}
	if data, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"stakingRewardsFactory":"`+farms+`"`) || strings.Count(string(data), "stakingRewardsFactory") != 1 {
		t.Fatalf("marshalled config: %s", data)
	}
	again, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, cfg) {
		t.Fatalf("round trip changed the config:\n%+v\n%+v", again, cfg)
	}
}

// TestParseConfigTickLens: uniswap-v3's optional tickLens is read from the file, kept as written,
// absent by default, and survives a JSON round trip.
func TestParseConfigTickLens(t *testing.T) {
	cfg, err := ParseConfig([]byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	if l := cfg.Chains["base"].Venues["uniswap-v3"].TickLens; l != "" {
		t.Errorf("tickLens = %q without one in the file", l)
	}
	const lens = "0x0CdeE061c75D43c82520eD998C23ac2991c9ac6d" // Base's TickLens
	m := doc(t)
	at(m, "chains.base.venues.uniswap-v3")["tickLens"] = lens
	data, _ := json.Marshal(m)
	if cfg, err = ParseConfig(data); err != nil {
		t.Fatal(err)
	}
	if l := cfg.Chains["base"].Venues["uniswap-v3"].TickLens; l != lens {
		t.Fatalf("tickLens = %q, want %s", l, lens)
	}
	if data, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"tickLens":"`+lens+`"`) || strings.Count(string(data), "tickLens") != 1 {
		t.Fatalf("marshalled config: %s", data)
	}
	again, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, cfg) {
		t.Fatalf("round trip changed the config:\n%+v\n%+v", again, cfg)
	}
}

// Base's official Uniswap V3 position manager, staker and migrator.
const (
	basePositionManager = "0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1"
	baseV3Staker        = "0x42bE4D6527829FeFA1493e1fb9F3676d2425C3C1"
	baseV3Migrator      = "0x23cF10b1ee3AdfCA73B0eF17C07F7577e7ACd2d7"
)

// TestParseConfigV3Contracts: uniswap-v3's optional positionManager, staker (with
// stakerStartBlock) and migrator are read from the file, kept as written, absent by default, and survive a JSON round trip.
func TestParseConfigV3Contracts(t *testing.T) {
	cfg, err := ParseConfig([]byte(validDoc))
	if err != nil {
		t.Fatal(err)
	}
	if v := cfg.Chains["base"].Venues["uniswap-v3"]; v.PositionManager != "" || v.Staker != "" || v.Migrator != "" {
		t.Errorf("uniswap-v3 = %+v without them in the file", v)
	}
	m := doc(t)
	v3 := at(m, "chains.base.venues.uniswap-v3")
	v3["positionManager"], v3["staker"], v3["migrator"], v3["stakerStartBlock"] = basePositionManager, baseV3Staker, baseV3Migrator, 1371680
	data, _ := json.Marshal(m)
	if cfg, err = ParseConfig(data); err != nil {
		t.Fatal(err)
	}
	if v := cfg.Chains["base"].Venues["uniswap-v3"]; v.PositionManager != basePositionManager || v.Staker != baseV3Staker || v.Migrator != baseV3Migrator || v.StakerStartBlock != 1371680 {
		t.Fatalf("uniswap-v3 = %+v", v)
	}
	if data, err = json.Marshal(cfg); err != nil {
		t.Fatal(err)
	}
	for field, addr := range map[string]string{"positionManager": basePositionManager, "staker": baseV3Staker, "migrator": baseV3Migrator} {
		if !strings.Contains(string(data), `"`+field+`":"`+addr+`"`) || strings.Count(string(data), `"`+field+`"`) != 1 {
			t.Fatalf("marshalled config lacks %s once: %s", field, data)
		}
	}
	again, err := ParseConfig(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, cfg) {
		t.Fatalf("round trip changed the config:\n%+v\n%+v", again, cfg)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		// chains
		{"no chains", func(m map[string]any) { m["chains"] = map[string]any{} }, "chains: at least one chain is required"},
		{"unsupported chain", func(m map[string]any) { at(m, "chains")["polygon"] = at(m, "chains.base") },
			"chains.polygon: unsupported chain (want one of solana, ethereum, base, bsc, robinhood, arc)"},
		{"odd chain key quoted", func(m map[string]any) { at(m, "chains")["a.b"] = map[string]any{} },
			`chains."a.b": unsupported chain (want one of solana, ethereum, base, bsc, robinhood, arc)`},

		// rpcUrls
		{"no rpc", func(m map[string]any) { delete(at(m, "chains.base"), "rpcUrls") }, "chains.base.rpcUrls: at least one URL is required"},
		{"too many rpc", func(m map[string]any) {
			var urls []any
			for i := range 17 {
				urls = append(urls, "https://h"+string(rune('a'+i))+".example")
			}
			at(m, "chains.base")["rpcUrls"] = urls
		}, "chains.base.rpcUrls: at most 16 URLs"},
		{"empty rpc", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{""} }, "chains.base.rpcUrls[0]: empty URL"},
		{"bad rpc", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"https://user:s3cret@h.example/%zz"} }, "chains.base.rpcUrls[0]: not a valid URL"},
		{"rpc scheme", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"ftp://h.example"} }, "chains.base.rpcUrls[0]: scheme must be http, https, ws or wss"},
		{"rpc no scheme", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"h.example:8545"} }, "chains.base.rpcUrls[0]: scheme must be http, https, ws or wss"},
		{"rpc no host", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"https:///v2/key"} }, "chains.base.rpcUrls[0]: URL has no host"},
		{"rpc port", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"http://h.example:99999"} }, "chains.base.rpcUrls[0]: invalid port"},
		{"rpc duplicate", func(m map[string]any) {
			at(m, "chains.base")["rpcUrls"] = []any{"https://a.example/k", "http://b.example", "HTTPS://A.EXAMPLE/k"}
		}, "chains.base.rpcUrls[2]: duplicate of rpcUrls[0]"},
		{"rpc ws among several", func(m map[string]any) {
			at(m, "chains.base")["rpcUrls"] = []any{"https://a.example/k", "wss://b.example/k"}
		}, "chains.base.rpcUrls[1]: a ws or wss URL must be the chain's only one (failover between URLs is over http or https)"},

		// chainId and network
		{"mainnet chain id", func(m map[string]any) { at(m, "chains.base")["chainId"] = 1 }, "chains.base.chainId: must be 8453 on base mainnet"},
		{"solana chain id", func(m map[string]any) { at(m, "chains.solana")["chainId"] = 5 }, "chains.solana.chainId: must be 0 on solana mainnet"},
		{"solana devnet chain id", func(m map[string]any) {
			at(m, "chains.solana")["network"] = "devnet"
			at(m, "chains.solana")["chainId"] = 5
		}, "chains.solana.chainId: must be absent or 0 on Solana"},
		{"devnet needs chain id", func(m map[string]any) { delete(at(m, "chains.arc"), "chainId") }, "chains.arc.chainId: a positive chain id is required on a devnet"},
		{"devnet negative chain id", func(m map[string]any) { at(m, "chains.arc")["chainId"] = -1 }, "chains.arc.chainId: a positive chain id is required on a devnet"},
		{"network", func(m map[string]any) { at(m, "chains.base")["network"] = "testnet" }, "chains.base.network: want mainnet or devnet"},

		// wrappedNative
		{"wrapped missing", func(m map[string]any) { delete(at(m, "chains.base"), "wrappedNative") }, "chains.base.wrappedNative: required"},
		{"wrapped not evm", func(m map[string]any) { at(m, "chains.base")["wrappedNative"] = "0x42" }, "chains.base.wrappedNative: not an EVM address (want 0x followed by 40 hex digits)"},
		{"wrapped zero", func(m map[string]any) {
			at(m, "chains.base")["wrappedNative"] = "0x0000000000000000000000000000000000000000"
		}, "chains.base.wrappedNative: the zero address"},
		{"wrapped not solana", func(m map[string]any) { at(m, "chains.solana")["wrappedNative"] = evmA }, "chains.solana.wrappedNative: not a Solana address (want base58 of 32 bytes)"},

		// usdStablecoins
		{"no stablecoin", func(m map[string]any) { at(m, "chains.base")["usdStablecoins"] = []any{} }, "chains.base.usdStablecoins: at least one stablecoin is required"},
		{"stablecoin address", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{map[string]any{"address": solA, "decimals": 6}}
		}, "chains.base.usdStablecoins[0].address: not an EVM address (want 0x followed by 40 hex digits)"},
		{"stablecoin address missing", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{map[string]any{"decimals": 6}}
		}, "chains.base.usdStablecoins[0].address: required"},
		{"stablecoin decimals missing", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{map[string]any{"address": evmA}}
		}, "chains.base.usdStablecoins[0].decimals: required"},
		{"stablecoin decimals range", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{map[string]any{"address": evmA, "decimals": 37}}
		}, "chains.base.usdStablecoins[0].decimals: want 0 to 36"},
		{"stablecoin duplicate", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{
				map[string]any{"address": evmA, "decimals": 6},
				map[string]any{"address": strings.ToUpper(evmA[:2]) + evmA[2:], "decimals": 6},
			}
		}, "chains.base.usdStablecoins[1].address: duplicate of usdStablecoins[0]"},
		{"stablecoin is wrapped native", func(m map[string]any) {
			at(m, "chains.base")["usdStablecoins"] = []any{map[string]any{"address": "0x4200000000000000000000000000000000000006", "decimals": 18}}
		}, "chains.base.usdStablecoins[0].address: same as wrappedNative"},
		{"arc 18 decimals", func(m map[string]any) {
			at(m, "chains.arc")["usdStablecoins"] = []any{map[string]any{"address": "0x3600000000000000000000000000000000000000", "decimals": 18}}
		}, "chains.arc.usdStablecoins[0].decimals: 18 is the decimals of Arc's native gas USDC; the ERC-20 USDC has 6"},
		{"solana stablecoin", func(m map[string]any) {
			at(m, "chains.solana")["usdStablecoins"] = []any{map[string]any{"address": evmA, "decimals": 6}}
		}, "chains.solana.usdStablecoins[0].address: not a Solana address (want base58 of 32 bytes)"},

		// confirmations, multicall3
		{"confirmations negative", func(m map[string]any) { at(m, "chains.base")["confirmations"] = -1 }, "chains.base.confirmations: want 0 to 1000"},
		{"confirmations high", func(m map[string]any) { at(m, "chains.base")["confirmations"] = 1001 }, "chains.base.confirmations: want 0 to 1000"},
		{"multicall3", func(m map[string]any) { at(m, "chains.base")["multicall3"] = "0xcA11" }, "chains.base.multicall3: not an EVM address (want 0x followed by 40 hex digits)"},
		{"router checksum", func(m map[string]any) {
			at(m, "chains.base.venues.uniswap-v2")["router"] = "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD25"
		},
			"chains.base.venues.uniswap-v2.router: checksum mismatch: " + ChecksumAdvice},
		{"multicall3 solana", func(m map[string]any) { at(m, "chains.solana")["multicall3"] = CanonicalMulticall3 }, "chains.solana.multicall3: not used on Solana"},

		// venues
		{"unknown venue", func(m map[string]any) { at(m, "chains.base.venues")["sushiswap"] = map[string]any{} },
			"chains.base.venues.sushiswap: unknown venue (want one of raydium, orca, meteora, pumpswap, uniswap-v2, uniswap-v3)"},
		{"solana venue on evm", func(m map[string]any) { at(m, "chains.base.venues")["raydium"] = map[string]any{"factory": solA} },
			"chains.base.venues.raydium: not a venue of base (want one of uniswap-v2, uniswap-v3)"},
		{"evm venue on solana", func(m map[string]any) { at(m, "chains.solana.venues")["uniswap-v2"] = map[string]any{"factory": evmA} },
			"chains.solana.venues.uniswap-v2: not a venue of solana (want one of raydium, orca, meteora, pumpswap)"},
		{"v2 factory", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["factory"] = "base" },
			"chains.base.venues.uniswap-v2.factory: not an EVM address (want 0x followed by 40 hex digits)"},
		{"v2 router missing", func(m map[string]any) { delete(at(m, "chains.base.venues.uniswap-v2"), "router") }, "chains.base.venues.uniswap-v2.router: required"},
		{"v2 quoter", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["quoter"] = evmA }, "chains.base.venues.uniswap-v2.quoter: not used by uniswap-v2"},
		{"v2 tick lens", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["tickLens"] = evmA }, "chains.base.venues.uniswap-v2.tickLens: not used by uniswap-v2"},
		{"v2 position manager", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["positionManager"] = evmA },
			"chains.base.venues.uniswap-v2.positionManager: not used by uniswap-v2"},
		{"v2 staker", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["staker"] = evmA }, "chains.base.venues.uniswap-v2.staker: not used by uniswap-v2"},
		{"v2 migrator", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["migrator"] = evmA }, "chains.base.venues.uniswap-v2.migrator: not used by uniswap-v2"},
		{"v2 staker start", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["stakerStartBlock"] = 5 },
			"chains.base.venues.uniswap-v2.stakerStartBlock: not used by uniswap-v2"},
		{"v3 staker start without a staker", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["stakerStartBlock"] = 5 },
			"chains.base.venues.uniswap-v3.stakerStartBlock: is the staker's deployment block: give staker too"},
		{"v2 fee", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["feeBps"] = 10000 }, "chains.base.venues.uniswap-v2.feeBps: want 0 to 9999"},
		{"v2 init code hash", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["initCodeHash"] = "0x96e8" },
			"chains.base.venues.uniswap-v2.initCodeHash: want 0x followed by 64 hex digits"},
		{"v2 staking rewards factory", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["stakingRewardsFactory"] = "0x3032" },
			"chains.base.venues.uniswap-v2.stakingRewardsFactory: not an EVM address (want 0x followed by 40 hex digits)"},
		{"v2 staking rewards factory zero", func(m map[string]any) {
			at(m, "chains.base.venues.uniswap-v2")["stakingRewardsFactory"] = "0x" + strings.Repeat("0", 40)
		}, "chains.base.venues.uniswap-v2.stakingRewardsFactory: the zero address"},
		{"v3 factory missing", func(m map[string]any) { delete(at(m, "chains.base.venues.uniswap-v3"), "factory") }, "chains.base.venues.uniswap-v3.factory: required"},
		{"v3 quoter missing", func(m map[string]any) { delete(at(m, "chains.base.venues.uniswap-v3"), "quoter") }, "chains.base.venues.uniswap-v3.quoter: required"},
		{"v3 router", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["router"] = "0x1" }, "chains.base.venues.uniswap-v3.router: not an EVM address (want 0x followed by 40 hex digits)"},
		{"v3 tick lens", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["tickLens"] = "0x1" }, "chains.base.venues.uniswap-v3.tickLens: not an EVM address (want 0x followed by 40 hex digits)"},
		{"v3 position manager", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["positionManager"] = "0x1" },
			"chains.base.venues.uniswap-v3.positionManager: not an EVM address (want 0x followed by 40 hex digits)"},
		{"v3 staker checksum", func(m map[string]any) {
			at(m, "chains.base.venues.uniswap-v3")["staker"] = "0x42be4D6527829FeFA1493e1fb9F3676d2425C3C1"
		}, "chains.base.venues.uniswap-v3.staker: checksum mismatch: " + ChecksumAdvice},
		{"v3 migrator zero", func(m map[string]any) {
			at(m, "chains.base.venues.uniswap-v3")["migrator"] = "0x" + strings.Repeat("0", 40)
		}, "chains.base.venues.uniswap-v3.migrator: the zero address"},
		{"v3 fee", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["feeBps"] = 5 }, "chains.base.venues.uniswap-v3.feeBps: not used by uniswap-v3, whose fee is per pool"},
		{"v3 staking rewards factory", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v3")["stakingRewardsFactory"] = evmA },
			"chains.base.venues.uniswap-v3.stakingRewardsFactory: not used by uniswap-v3"},
		{"shared factory", func(m map[string]any) {
			at(m, "chains.base.venues.uniswap-v3")["factory"] = strings.ToLower("0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6")
		}, "chains.base.venues.uniswap-v3.factory: same as venues.uniswap-v2.factory"},
		{"solana venue program", func(m map[string]any) { at(m, "chains.solana.venues.orca")["factory"] = evmA },
			"chains.solana.venues.orca.factory: not a Solana address (want base58 of 32 bytes)"},
		{"solana venue program missing", func(m map[string]any) { at(m, "chains.solana.venues")["meteora"] = map[string]any{} },
			"chains.solana.venues.meteora.factory: required"},
		{"solana venue router", func(m map[string]any) { at(m, "chains.solana.venues.orca")["router"] = solA }, "chains.solana.venues.orca.router: not used by orca"},
		{"solana venue quoter", func(m map[string]any) { at(m, "chains.solana.venues.orca")["quoter"] = solA }, "chains.solana.venues.orca.quoter: not used by orca"},
		{"solana venue tick lens", func(m map[string]any) { at(m, "chains.solana.venues.orca")["tickLens"] = solA }, "chains.solana.venues.orca.tickLens: not used by orca"},
		{"solana venue position manager", func(m map[string]any) { at(m, "chains.solana.venues.orca")["positionManager"] = solA },
			"chains.solana.venues.orca.positionManager: not used by orca"},
		{"solana venue staker", func(m map[string]any) { at(m, "chains.solana.venues.orca")["staker"] = solA }, "chains.solana.venues.orca.staker: not used by orca"},
		{"solana venue migrator", func(m map[string]any) { at(m, "chains.solana.venues.orca")["migrator"] = solA }, "chains.solana.venues.orca.migrator: not used by orca"},
		{"solana venue hash", func(m map[string]any) { at(m, "chains.solana.venues.orca")["initCodeHash"] = "x" }, "chains.solana.venues.orca.initCodeHash: not used by orca"},
		{"solana venue staking rewards factory", func(m map[string]any) { at(m, "chains.solana.venues.orca")["stakingRewardsFactory"] = solA },
			"chains.solana.venues.orca.stakingRewardsFactory: not used by orca"},
		{"solana venue fee", func(m map[string]any) { at(m, "chains.solana.venues.orca")["feeBps"] = 30 }, "chains.solana.venues.orca.feeBps: not used by orca, whose fee is per pool"},

		// shape
		{"unknown field", func(m map[string]any) { at(m, "chains.base.venues.uniswap-v2")["pairFee"] = 30 }, "chains.base.venues.uniswap-v2.pairFee: unknown field"},
		{"field case", func(m map[string]any) { at(m, "chains.base")["RPCURLs"] = []any{} }, "chains.base.RPCURLs: unknown field"},
		{"top-level unknown", func(m map[string]any) { m["version"] = 1 }, "version: unknown field"},
		{"wrong type", func(m map[string]any) { at(m, "chains.base")["confirmations"] = "12" }, "chains.base.confirmations: want an integer"},
		{"fraction", func(m map[string]any) { at(m, "chains.base")["confirmations"] = 1.5 }, "chains.base.confirmations: want an integer"},
		{"exponent", func(m map[string]any) { at(m, "chains.base")["startBlock"] = 1e30 }, "chains.base.startBlock: want a non-negative integer"},
		{"negative start", func(m map[string]any) { at(m, "chains.base")["startBlock"] = -1 }, "chains.base.startBlock: want a non-negative integer in range"},
		{"rpc not array", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = "https://mainnet.base.org" }, "chains.base.rpcUrls: want an array"},
		{"rpc element type", func(m map[string]any) { at(m, "chains.base")["rpcUrls"] = []any{"https://a.example", 1} }, "chains.base.rpcUrls[1]: want a string"},
		{"venue not object", func(m map[string]any) { at(m, "chains.base.venues")["uniswap-v2"] = []any{} }, "chains.base.venues.uniswap-v2: want an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := doc(t)
			tc.mutate(m)
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ParseConfig(data)
			if err == nil {
				t.Fatalf("ParseConfig accepted it, want %q", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("err = %q\nwant  %q", err, tc.want)
			}
			if !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("err does not wrap ErrInvalidConfig: %v", err)
			}
		})
	}
}

func TestParseConfigRawErrors(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"empty", ``, "$: unexpected end of JSON"},
		{"not an object", `[]`, "$: want an object"},
		{"syntax", `{"chains": {"base": {"rpcUrls": [}}}`, "chains.base.rpcUrls: invalid JSON at byte 33"},
		{"truncated", `{"chains": {"base": {`, "chains.base: unexpected end of JSON"},
		{"trailing", `{"chains": {}} {}`, "$: unexpected data after the document"},
		{"duplicate chain", `{"chains": {"base": {}, "base": {}}}`, "chains.base: duplicate key"},
		{"duplicate field", `{"chains": {"base": {"chainId": 1, "chainId": 8453}}}`, "chains.base.chainId: duplicate key"},
		{"int64 overflow", `{"chains": {"base": {"chainId": 9223372036854775808}}}`, "chains.base.chainId: want an integer in range"},
		{"null document", `null`, "chains: at least one chain is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.doc))
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseConfigReportsEveryProblemInOrder(t *testing.T) {
	m := doc(t)
	at(m, "chains.solana")["confirmations"] = 5000
	at(m, "chains.base")["network"] = "x"
	at(m, "chains.arc")["wrappedNative"] = "nope"
	data, _ := json.Marshal(m)
	_, err := ParseConfig(data)
	want := "chains.solana.confirmations: want 0 to 1000\n" +
		"chains.base.network: want mainnet or devnet\n" +
		"chains.arc.wrappedNative: not an EVM address (want 0x followed by 40 hex digits)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

func TestValidateProgrammatic(t *testing.T) {
	if err := (Config{}).Validate(); err == nil || err.Error() != "chains: at least one chain is required" {
		t.Errorf("zero Config: %v", err)
	}
	cfg := Config{Chains: map[string]ChainConfig{"bsc": {
		RPCURLs:        []string{"https://bsc-dataseed.bnbchain.org"},
		ChainID:        56,
		WrappedNative:  evmA,
		USDStablecoins: []Stablecoin{{Address: "0x1000000000000000000000000000000000000002", Decimals: 18}},
		Multicall3:     CanonicalMulticall3,
	}}}
	// Validate does not fill defaults: the network must be set.
	if err := cfg.Validate(); err == nil || err.Error() != "chains.bsc.network: want mainnet or devnet" {
		t.Errorf("network unset: %v", err)
	}
	c := cfg.Chains["bsc"]
	c.Network = Mainnet
	cfg.Chains["bsc"] = c
	if err := cfg.Validate(); err != nil {
		t.Errorf("complete config: %v", err)
	}
}

func TestErrorsNeverCarryRPCURLs(t *testing.T) {
	for _, u := range []string{
		"https://user:hunter2hunter2@h.example/%zz",
		"ftp://user:hunter2hunter2@h.example/",
		"https://user:hunter2hunter2@:99999/",
		"hunter2hunter2",
	} {
		m := doc(t)
		at(m, "chains.base")["rpcUrls"] = []any{u, u}
		data, _ := json.Marshal(m)
		_, err := ParseConfig(data)
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("rpc %q: err = %v", u, err)
		}
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://mainnet.base.org", "https://mainnet.base.org"},
		{"http://127.0.0.1:8545", "http://127.0.0.1:8545"},
		{"https://user:pass@h.example/rpc", "https://redacted@h.example/rpc"},
		{"https://eth-mainnet.g.alchemy.com/v2/AbCdEf0123456789xyz", "https://eth-mainnet.g.alchemy.com/v2/redacted"},
		{"wss://mainnet.infura.io/ws/v3/0123456789abcdef0123456789abcdef", "wss://mainnet.infura.io/ws/v3/redacted"},
		{"https://x.quiknode.pro/a1b2c3d4e5/", "https://x.quiknode.pro/redacted/"},
		{"https://rpc.example/?api-key=s3cret&x=1", "https://rpc.example/?api-key=redacted&x=redacted"},
		{"https://rpc.example/#frag", "https://rpc.example/"},
		{"https://h.example/%zz", "redacted"},
		{"mailto:someone", "redacted"},
	}
	for _, tc := range tests {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRedacted(t *testing.T) {
	cfg, err := LoadConfig("testdata/chains.example.json")
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Chains["base"]
	c.RPCURLs = []string{"https://u:p@h.example/v2/0123456789abcdefXYZ"}
	cfg.Chains["base"] = c

	red := cfg.Redacted()
	if got := red.Chains["base"].RPCURLs[0]; got != "https://redacted@h.example/v2/redacted" {
		t.Errorf("redacted URL = %q", got)
	}
	if got := cfg.Chains["base"].RPCURLs[0]; got != "https://u:p@h.example/v2/0123456789abcdefXYZ" {
		t.Errorf("Redacted changed the original: %q", got)
	}
	// Everything but the URLs is kept.
	c.RPCURLs = red.Chains["base"].RPCURLs
	if !reflect.DeepEqual(red.Chains["base"], c) || !reflect.DeepEqual(red.Chains["solana"], cfg.Chains["solana"]) {
		t.Errorf("Redacted changed more than URLs")
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(validDoc))
	if data, err := os.ReadFile("testdata/chains.example.json"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"chains":{"base":{"chainId":1,"chainId":2}}}`))
	f.Add([]byte(`{"chains":{"solana":{"rpcUrls":["wss://a.example"],"usdStablecoins":[{"address":"11111111111111111111111111111111","decimals":0}]}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data)
		if err != nil {
			if !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("error does not wrap ErrInvalidConfig: %v", err)
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("accepted config does not validate: %v", err)
		}
		out, err := json.Marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		again, err := ParseConfig(out)
		if err != nil {
			t.Fatalf("round trip rejected: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(cfg, again) {
			t.Fatalf("round trip changed the config:\n%+v\n%+v", cfg, again)
		}
		_ = cfg.Redacted().Validate()
	})
}
