package venue

import (
	"strings"
	"testing"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/venue/raydium"
	"github.com/partner-platform/partnerd/venue/uniswapv2"
	"github.com/partner-platform/partnerd/venue/uniswapv3"
)

// TestSVM: the Solana venues of a configuration are the configured venues that implement
// chain.SVMVenue (never an EVM venue), and one indexes only when configured to serve pools.
func TestSVM(t *testing.T) {
	cpmm := raydium.ProgramID.String()
	for _, tc := range []struct {
		name     string
		venues   map[string]chain.VenueConfig
		want     []string
		indexing int
	}{
		{"cpmm", map[string]chain.VenueConfig{raydium.VenueName: {Factory: cpmm}}, []string{raydium.VenueName}, 1},
		{"another program", map[string]chain.VenueConfig{raydium.VenueName: {Factory: "11111111111111111111111111111111"}}, []string{raydium.VenueName}, 0},
		{"evm venue", map[string]chain.VenueConfig{uniswapv2.Name: {Factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f"}}, nil, 0},
		{"none", nil, nil, 0},
	} {
		venues, configs := All().SVM(chain.ChainConfig{Venues: tc.venues})
		if len(venues) != len(tc.want) || len(configs) != len(venues) {
			t.Fatalf("%s: %d venues, %d configs; want %v", tc.name, len(venues), len(configs), tc.want)
		}
		indexing := 0
		for i, v := range venues {
			if v.Spec().Name != tc.want[i] {
				t.Errorf("%s: venue %d is %s, want %s", tc.name, i, v.Spec().Name, tc.want[i])
			}
			if v.Pools().Program() != cpmm {
				t.Errorf("%s: pools of program %s", tc.name, v.Pools().Program())
			}
			if ix, ok := v.Indexer(configs[i]); ok {
				indexing++
				if ix.Program() != cpmm {
					t.Errorf("%s: indexer of program %s", tc.name, ix.Program())
				}
			}
		}
		if indexing != tc.indexing {
			t.Errorf("%s: %d indexers, want %d", tc.name, indexing, tc.indexing)
		}
	}
}

// TestEVM: the EVM venues of a configuration are the configured venues that implement
// chain.EVMVenue (never a Solana venue), and one indexes only when configured with a factory, whose
// pairs its indexer reads.
func TestEVM(t *testing.T) {
	const factory = "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f"
	for _, tc := range []struct {
		name     string
		venues   map[string]chain.VenueConfig
		want     []string
		indexing int
	}{
		{"uniswap-v2", map[string]chain.VenueConfig{uniswapv2.Name: {Factory: factory, FeeBps: 30}}, []string{uniswapv2.Name}, 1},
		{"without a factory", map[string]chain.VenueConfig{uniswapv2.Name: {}}, []string{uniswapv2.Name}, 0},
		{"solana venue", map[string]chain.VenueConfig{raydium.VenueName: {Factory: raydium.ProgramID.String()}}, nil, 0},
		{"both", map[string]chain.VenueConfig{raydium.VenueName: {Factory: raydium.ProgramID.String()}, uniswapv2.Name: {Factory: factory}},
			[]string{uniswapv2.Name}, 1},
		{"uniswap-v3", map[string]chain.VenueConfig{uniswapv3.Name: {Factory: factory}}, []string{uniswapv3.Name}, 1},
		{"not implemented", map[string]chain.VenueConfig{"orca": {Factory: raydium.ProgramID.String()}}, nil, 0},
		{"none", nil, nil, 0},
	} {
		venues, configs := All().EVM(chain.ChainConfig{Venues: tc.venues})
		if len(venues) != len(tc.want) || len(configs) != len(venues) {
			t.Fatalf("%s: %d venues, %d configs; want %v", tc.name, len(venues), len(configs), tc.want)
		}
		indexing := 0
		for i, v := range venues {
			if v.Spec().Name != tc.want[i] {
				t.Errorf("%s: venue %d is %s, want %s", tc.name, i, v.Spec().Name, tc.want[i])
			}
			if configs[i] != tc.venues[tc.want[i]] {
				t.Errorf("%s: venue %d configured as %+v", tc.name, i, configs[i])
			}
			ix, ok := v.Indexer(configs[i])
			if !ok {
				continue
			}
			indexing++
			if c := ix.Creators(); len(c) != 1 || c[0] != strings.ToLower(factory) {
				t.Errorf("%s: indexer of creators %v", tc.name, c)
			}
			if len(ix.CreationTopics()) == 0 || len(ix.PoolTopics()) == 0 {
				t.Errorf("%s: indexer reads no topics", tc.name)
			}
		}
		if indexing != tc.indexing {
			t.Errorf("%s: %d indexers, want %d", tc.name, indexing, tc.indexing)
		}
	}
}
