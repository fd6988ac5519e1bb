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
	"github.com/ethereum/go-ethereum/crypto"

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
// Deploy deployed: see Account.DeployV3. (Seed deploys its own set: Market.V3.)
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
// QuoterV2; TickLens; V3Migrator; the staker. No pools. (Seed deploys the same set, in one block.)
func (a *Account) DeployV3(ctx context.Context, b Backend, core Addresses) (V3Addresses, error) {
	plan, out, err := planV3(a.Address, a.nonce, core)
	if err != nil {
		return V3Addresses{}, err
	}
	for _, d := range plan {
		at, err := a.Deploy(ctx, b, d.meta, d.input)
		if err != nil {
			return V3Addresses{}, fmt.Errorf("devnet: deploy %s: %w", d.name, err)
		}
		if at != d.at {
			return V3Addresses{}, fmt.Errorf("devnet: deploy %s: at %s, planned at %s", d.name, at, d.at)
		}
	}
	return out, nil
}

// v3Deployment is one contract creation of the V3 set, at the address its deployer's nonce gives.
type v3Deployment struct {
	name  string
	meta  *bind.MetaData // library placeholders already linked
	input []byte         // packed constructor arguments
	at    common.Address
}

// planV3 lists the V3 set's creations in order, the first sent by deployer with the given nonce and
// each later one with the next: every constructor only stores addresses, so all of them are known
// in advance (the position descriptor's NFTDescriptor library included) and the creations need not
// wait for one another.
func planV3(deployer common.Address, nonce uint64, core Addresses) ([]v3Deployment, V3Addresses, error) {
	var out V3Addresses
	if core.WrappedNative == (common.Address{}) || core.Factory == (common.Address{}) {
		return nil, out, errors.New("devnet: deploy V3: core has no wrapped native token or V2 factory")
	}
	var plan []v3Deployment
	add := func(dst *common.Address, name string, meta *bind.MetaData, input []byte) {
		*dst = crypto.CreateAddress(deployer, nonce+uint64(len(plan)))
		plan = append(plan, v3Deployment{name: name, meta: meta, input: input, at: *dst})
	}
	weth := core.WrappedNative
	var label [32]byte
	copy(label[:], V3NativeCurrencyLabel)

	add(&out.Factory, "UniswapV3Factory", &bindings.UniswapV3FactoryMetaData, nil)
	add(&out.NFTDescriptor, "NFTDescriptor", &bindings.NFTDescriptorMetaData, nil)
	linked, err := link(&bindings.NonfungibleTokenPositionDescriptorMetaData, map[string]common.Address{
		bindings.NFTDescriptorMetaData.ID: out.NFTDescriptor,
	})
	if err != nil {
		return nil, out, err
	}
	add(&out.PositionDescriptor, "NonfungibleTokenPositionDescriptor", linked,
		bindings.NewNonfungibleTokenPositionDescriptor().PackConstructor(weth, label))
	add(&out.PositionManager, "NonfungiblePositionManager", &bindings.NonfungiblePositionManagerMetaData,
		bindings.NewNonfungiblePositionManager().PackConstructor(out.Factory, weth, out.PositionDescriptor))
	add(&out.SwapRouter02, "SwapRouter02", &bindings.SwapRouter02MetaData,
		bindings.NewSwapRouter02().PackConstructor(core.Factory, out.Factory, out.PositionManager, weth))
	add(&out.QuoterV2, "QuoterV2", &bindings.QuoterV2MetaData, bindings.NewQuoterV2().PackConstructor(out.Factory, weth))
	add(&out.TickLens, "TickLens", &bindings.TickLensMetaData, nil)
	add(&out.V3Migrator, "V3Migrator", &bindings.V3MigratorMetaData,
		bindings.NewV3Migrator().PackConstructor(out.Factory, weth, out.PositionManager))
	add(&out.Staker, "UniswapV3Staker", &bindings.UniswapV3StakerMetaData,
		bindings.NewUniswapV3Staker().PackConstructor(out.Factory, out.PositionManager,
			big.NewInt(V3StakerMaxIncentiveStartLeadTime), big.NewInt(V3StakerMaxIncentiveDuration)))
	return plan, out, nil
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
