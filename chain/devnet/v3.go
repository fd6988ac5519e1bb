package devnet

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/partner-platform/partnerd/chain/devnet/bindings"
)

// The staker's limits, passed to its constructor: an incentive may start at most
// V3StakerMaxIncentiveStartLeadTime seconds after it is created and last at most
// V3StakerMaxIncentiveDuration seconds (our choice for the devnet: 30 days and 2 years).
const (
	V3StakerMaxIncentiveStartLeadTime = 30 * 24 * 60 * 60
	V3StakerMaxIncentiveDuration      = 2 * 365 * 24 * 60 * 60
)

// V3NativeCurrencyLabel is the native currency's label the position descriptor shows in token URIs.
const V3NativeCurrencyLabel = "ETH"

// V3Addresses are the official Uniswap V3 contracts DeployV3 deployed.
type V3Addresses struct {
	Factory            common.Address // UniswapV3Factory (owner: the deployer; 0.05 %, 0.3 % and 1 % tiers)
	NFTDescriptor      common.Address // the NFTDescriptor library the position descriptor is linked to
	PositionDescriptor common.Address // NonfungibleTokenPositionDescriptor (WETH9, V3NativeCurrencyLabel)
	PositionManager    common.Address // NonfungiblePositionManager (factory, WETH9, descriptor)
	SwapRouter02       common.Address // SwapRouter02 (V2 factory, V3 factory, position manager, WETH9)
	QuoterV2           common.Address // QuoterV2 (factory, WETH9)
	TickLens           common.Address
	V3Migrator         common.Address // V3Migrator (factory, WETH9, position manager)
	Staker             common.Address // UniswapV3Staker (factory, position manager, the V3Staker* limits)
}

// DeployV3 deploys the official Uniswap V3 contracts from the deployer key beside the core contracts
// Deploy (or Seed) deployed: see Account.DeployV3.
func DeployV3(ctx context.Context, b Backend, deployer *ecdsa.PrivateKey, core Addresses) (V3Addresses, error) {
	acct, err := NewAccount(ctx, b.Client(), deployer)
	if err != nil {
		return V3Addresses{}, err
	}
	return acct.DeployV3(ctx, b, core)
}

// DeployV3 deploys the official Uniswap V3 set (from @uniswap/v3-core, v3-periphery,
// swap-router-contracts and v3-staker; see chain/devnet/contracts/v3.mjs) beside core's wrapped
// native token and V2 factory, one block per transaction as Deploy does: the factory; the
// NFTDescriptor library, then the position descriptor with the library's address linked into its
// bytecode; the position manager; SwapRouter02 (which routes through core.Factory's V2 pairs too);
// QuoterV2; TickLens; V3Migrator; the staker. No pools.
//
// Local mode does not call it (yet): the devnet's seeded addresses stay as they are.
func (a *Account) DeployV3(ctx context.Context, b Backend, core Addresses) (V3Addresses, error) {
	if core.WrappedNative == (common.Address{}) || core.Factory == (common.Address{}) {
		return V3Addresses{}, errors.New("devnet: deploy V3: core has no wrapped native token or V2 factory")
	}
	var out V3Addresses
	var err error
	step := func(dst *common.Address, name string, meta *bind.MetaData, input []byte) {
		if err != nil {
			return
		}
		if *dst, err = a.Deploy(ctx, b, meta, input); err != nil {
			err = fmt.Errorf("devnet: deploy %s: %w", name, err)
		}
	}
	weth := core.WrappedNative
	var label [32]byte
	copy(label[:], V3NativeCurrencyLabel)

	step(&out.Factory, "UniswapV3Factory", &bindings.UniswapV3FactoryMetaData, nil)
	step(&out.NFTDescriptor, "NFTDescriptor", &bindings.NFTDescriptorMetaData, nil)
	if err == nil {
		var linked *bind.MetaData
		linked, err = link(&bindings.NonfungibleTokenPositionDescriptorMetaData, map[string]common.Address{
			bindings.NFTDescriptorMetaData.ID: out.NFTDescriptor,
		})
		step(&out.PositionDescriptor, "NonfungibleTokenPositionDescriptor", linked,
			bindings.NewNonfungibleTokenPositionDescriptor().PackConstructor(weth, label))
	}
	if err == nil {
		step(&out.PositionManager, "NonfungiblePositionManager", &bindings.NonfungiblePositionManagerMetaData,
			bindings.NewNonfungiblePositionManager().PackConstructor(out.Factory, weth, out.PositionDescriptor))
	}
	if err == nil {
		step(&out.SwapRouter02, "SwapRouter02", &bindings.SwapRouter02MetaData,
			bindings.NewSwapRouter02().PackConstructor(core.Factory, out.Factory, out.PositionManager, weth))
	}
	if err == nil {
		step(&out.QuoterV2, "QuoterV2", &bindings.QuoterV2MetaData, bindings.NewQuoterV2().PackConstructor(out.Factory, weth))
	}
	step(&out.TickLens, "TickLens", &bindings.TickLensMetaData, nil)
	if err == nil {
		step(&out.V3Migrator, "V3Migrator", &bindings.V3MigratorMetaData,
			bindings.NewV3Migrator().PackConstructor(out.Factory, weth, out.PositionManager))
	}
	if err == nil {
		step(&out.Staker, "UniswapV3Staker", &bindings.UniswapV3StakerMetaData,
			bindings.NewUniswapV3Staker().PackConstructor(out.Factory, out.PositionManager,
				big.NewInt(V3StakerMaxIncentiveStartLeadTime), big.NewInt(V3StakerMaxIncentiveDuration)))
	}
	if err != nil {
		return V3Addresses{}, err
	}
	return out, nil
}

// link returns meta with every library placeholder in its bytecode (`__$<ID>$__`, ID being the
// library's MetaData.ID: the first 34 hex digits of keccak256 of its fully qualified name, as solc
// writes it) replaced by the library's address; every one of meta.Deps must be given, and no
// placeholder may remain.
func link(meta *bind.MetaData, libs map[string]common.Address) (*bind.MetaData, error) {
	bin := meta.Bin
	for _, dep := range meta.Deps {
		addr, ok := libs[dep.ID]
		if !ok {
			return nil, fmt.Errorf("devnet: link %s: no address for library %s", meta.ID, dep.ID)
		}
		placeholder := "__$" + dep.ID + "$__"
		if !strings.Contains(bin, placeholder) {
			return nil, fmt.Errorf("devnet: link %s: no placeholder for library %s", meta.ID, dep.ID)
		}
		bin = strings.ReplaceAll(bin, placeholder, strings.ToLower(addr.Hex()[2:]))
	}
	if strings.Contains(bin, "__$") {
		return nil, fmt.Errorf("devnet: link %s: a library placeholder is left", meta.ID)
	}
	return &bind.MetaData{ABI: meta.ABI, ID: meta.ID, Bin: bin}, nil
}
