// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package bindings

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// StakingRewardsMetaData contains all meta data concerning the StakingRewards contract.
var StakingRewardsMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_rewardsDistribution\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"_rewardsToken\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"_stakingToken\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reward\",\"type\":\"uint256\"}],\"name\":\"RewardAdded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"reward\",\"type\":\"uint256\"}],\"name\":\"RewardPaid\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Staked\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"user\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"address\",\"name\":\"account\",\"type\":\"address\"}],\"name\":\"earned\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[],\"name\":\"exit\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[],\"name\":\"getReward\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"getRewardForDuration\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"lastTimeRewardApplicable\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"lastUpdateTime\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"reward\",\"type\":\"uint256\"}],\"name\":\"notifyRewardAmount\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"periodFinish\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardPerToken\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardPerTokenStored\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardRate\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"rewards\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardsDistribution\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardsDuration\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardsToken\",\"outputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"stake\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"deadline\",\"type\":\"uint256\"},{\"internalType\":\"uint8\",\"name\":\"v\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"r\",\"type\":\"bytes32\"},{\"internalType\":\"bytes32\",\"name\":\"s\",\"type\":\"bytes32\"}],\"name\":\"stakeWithPermit\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"stakingToken\",\"outputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"userRewardPerTokenPaid\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "8cfd74351b9575c00f9c28663dc7fab2f5",
	Bin: "0x608060405260006004556000600555624f1a0060065534801561002157600080fd5b506040516117853803806117858339818101604052606081101561004457600080fd5b508051602082015160409092015160018055600280546001600160a01b039485166001600160a01b0319918216179091556003805492851692821692909217909155600080549390921692169190911790556116e0806100a56000396000f3fe608060405234801561001057600080fd5b50600436106101815760003560e01c80637b0a47ee116100d8578063cd3daf9d1161008c578063e9fad8ee11610066578063e9fad8ee14610346578063ebe2b12b1461034e578063ecd9ba821461035657610181565b8063cd3daf9d1461032e578063d1af0c7d14610336578063df136d651461033e57610181565b80638b876347116100bd5780638b876347146102d6578063a694fc3a14610309578063c8f33c911461032657610181565b80637b0a47ee146102c657806380faa57d146102ce57610181565b8063386a95251161013a5780633fc6df6e116101145780633fc6df6e1461025a57806370a082311461028b57806372f702f3146102be57610181565b8063386a95251461022d5780633c6b16ab146102355780633d18b9121461025257610181565b806318160ddd1161016b57806318160ddd146101fe5780631c1f78eb146102065780632e1a7d4d1461020e57610181565b80628cc262146101865780630700037d146101cb575b600080fd5b6101b96004803603602081101561019c57600080fd5b503573ffffffffffffffffffffffffffffffffffffffff1661038e565b60408051918252519081900360200190f35b6101b9600480360360208110156101e157600080fd5b503573ffffffffffffffffffffffffffffffffffffffff1661043e565b6101b9610450565b6101b9610457565b61022b6004803603602081101561022457600080fd5b5035610475565b005b6101b961067d565b61022b6004803603602081101561024b57600080fd5b5035610683565b61022b610955565b610262610acc565b6040805173ffffffffffffffffffffffffffffffffffffffff9092168252519081900360200190f35b6101b9600480360360208110156102a157600080fd5b503573ffffffffffffffffffffffffffffffffffffffff16610ae8565b610262610b10565b6101b9610b2c565b6101b9610b32565b6101b9600480360360208110156102ec57600080fd5b503573ffffffffffffffffffffffffffffffffffffffff16610b40565b61022b6004803603602081101561031f57600080fd5b5035610b52565b6101b9610d57565b6101b9610d5d565b610262610db7565b6101b9610dd3565b61022b610dd9565b6101b9610dfc565b61022b600480360360a081101561036c57600080fd5b5080359060208101359060ff6040820135169060608101359060800135610e02565b73ffffffffffffffffffffffffffffffffffffffff81166000908152600a60209081526040808320546009909252822054610438919061042c90670de0b6b3a764000090610420906103ee906103e2610d5d565b9063ffffffff6110c616565b73ffffffffffffffffffffffffffffffffffffffff88166000908152600c60205260409020549063ffffffff61113d16565b9063ffffffff6111b716565b9063ffffffff61123b16565b92915050565b600a6020526000908152604090205481565b600b545b90565b600061047060065460055461113d90919063ffffffff16565b905090565b6001805481019081905533610488610d5d565b600855610493610b32565b60075573ffffffffffffffffffffffffffffffffffffffff8116156104f4576104bb8161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b6000831161056357604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601160248201527f43616e6e6f742077697468647261772030000000000000000000000000000000604482015290519081900360640190fd5b600b54610576908463ffffffff6110c616565b600b55336000908152600c6020526040902054610599908463ffffffff6110c616565b336000818152600c60205260409020919091556003546105d29173ffffffffffffffffffffffffffffffffffffffff90911690856112af565b60408051848152905133917f7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d5919081900360200190a250600154811461067957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b5050565b60065481565b60005473ffffffffffffffffffffffffffffffffffffffff1633146106f3576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252602a815260200180611658602a913960400191505060405180910390fd5b60006106fd610d5d565b600855610708610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610769576107308161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b600454421061078e5760065461078690839063ffffffff6111b716565b6005556107dd565b6004546000906107a4904263ffffffff6110c616565b905060006107bd6005548361113d90919063ffffffff16565b6006549091506107d790610420868463ffffffff61123b16565b60055550505b600254604080517f70a08231000000000000000000000000000000000000000000000000000000008152306004820152905160009273ffffffffffffffffffffffffffffffffffffffff16916370a08231916024808301926020929190829003018186803b15801561084e57600080fd5b505afa158015610862573d6000803e3d6000fd5b505050506040513d602081101561087857600080fd5b505160065490915061089190829063ffffffff6111b716565b600554111561090157604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f50726f76696465642072657761726420746f6f20686967680000000000000000604482015290519081900360640190fd5b42600781905560065461091a919063ffffffff61123b16565b6004556040805184815290517fde88a922e0d3b88b24e9623efeb464919c6bf9f66857a65e2bfcf2ce87a9433d9181900360200190a1505050565b6001805481019081905533610968610d5d565b600855610973610b32565b60075573ffffffffffffffffffffffffffffffffffffffff8116156109d45761099b8161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b336000908152600a60205260409020548015610a5757336000818152600a6020526040812055600254610a209173ffffffffffffffffffffffffffffffffffffffff90911690836112af565b60408051828152905133917fe2403640ba68fed3a2f88b7557551d1993f84b99bb10ff833f0cf8db0c5e0486919081900360200190a25b50506001548114610ac957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b50565b60005473ffffffffffffffffffffffffffffffffffffffff1681565b73ffffffffffffffffffffffffffffffffffffffff166000908152600c602052604090205490565b60035473ffffffffffffffffffffffffffffffffffffffff1681565b60055481565b600061047042600454611341565b60096020526000908152604090205481565b6001805481019081905533610b65610d5d565b600855610b70610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610bd157610b988161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b60008311610c4057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600e60248201527f43616e6e6f74207374616b652030000000000000000000000000000000000000604482015290519081900360640190fd5b600b54610c53908463ffffffff61123b16565b600b55336000908152600c6020526040902054610c76908463ffffffff61123b16565b336000818152600c6020526040902091909155600354610cb09173ffffffffffffffffffffffffffffffffffffffff909116903086611357565b60408051848152905133917f9e71bc8eea02a63969f509818f2dafb9254532904319f9dbda79b67bd34a5f3d919081900360200190a250600154811461067957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b60075481565b6000600b5460001415610d735750600854610454565b610470610da8600b54610420670de0b6b3a7640000610d9c600554610d9c6007546103e2610b32565b9063ffffffff61113d16565b6008549063ffffffff61123b16565b60025473ffffffffffffffffffffffffffffffffffffffff1681565b60085481565b336000908152600c6020526040902054610df290610475565b610dfa610955565b565b60045481565b6001805481019081905533610e15610d5d565b600855610e20610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610e8157610e488161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b60008711610ef057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600e60248201527f43616e6e6f74207374616b652030000000000000000000000000000000000000604482015290519081900360640190fd5b600b54610f03908863ffffffff61123b16565b600b55336000908152600c6020526040902054610f26908863ffffffff61123b16565b336000818152600c60205260408082209390935560035483517fd505accf0000000000000000000000000000000000000000000000000000000081526004810193909352306024840152604483018b9052606483018a905260ff8916608484015260a4830188905260c48301879052925173ffffffffffffffffffffffffffffffffffffffff9093169263d505accf9260e480820193929182900301818387803b158015610fd357600080fd5b505af1158015610fe7573d6000803e3d6000fd5b5050600354611017925073ffffffffffffffffffffffffffffffffffffffff16905033308a63ffffffff61135716565b60408051888152905133917f9e71bc8eea02a63969f509818f2dafb9254532904319f9dbda79b67bd34a5f3d919081900360200190a25060015481146110be57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b505050505050565b60008282111561113757604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601e60248201527f536166654d6174683a207375627472616374696f6e206f766572666c6f770000604482015290519081900360640190fd5b50900390565b60008261114c57506000610438565b8282028284828161115957fe5b04146111b0576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260218152602001806116376021913960400191505060405180910390fd5b9392505050565b600080821161122757604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601a60248201527f536166654d6174683a206469766973696f6e206279207a65726f000000000000604482015290519081900360640190fd5b600082848161123257fe5b04949350505050565b6000828201838110156111b057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601b60248201527f536166654d6174683a206164646974696f6e206f766572666c6f770000000000604482015290519081900360640190fd5b6040805173ffffffffffffffffffffffffffffffffffffffff8416602482015260448082018490528251808303909101815260649091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fa9059cbb0000000000000000000000000000000000000000000000000000000017905261133c9084906113f2565b505050565b600081831061135057816111b0565b5090919050565b6040805173ffffffffffffffffffffffffffffffffffffffff85811660248301528416604482015260648082018490528251808303909101815260849091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f23b872dd000000000000000000000000000000000000000000000000000000001790526113ec9085906113f2565b50505050565b6114118273ffffffffffffffffffffffffffffffffffffffff16611630565b61147c57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5361666545524332303a2063616c6c20746f206e6f6e2d636f6e747261637400604482015290519081900360640190fd5b600060608373ffffffffffffffffffffffffffffffffffffffff16836040518082805190602001908083835b602083106114e557805182527fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe090920191602091820191016114a8565b6001836020036101000a0380198251168184511680821785525050505050509050019150506000604051808303816000865af19150503d8060008114611547576040519150601f19603f3d011682016040523d82523d6000602084013e61154c565b606091505b5091509150816115bd57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f5361666545524332303a206c6f772d6c6576656c2063616c6c206661696c6564604482015290519081900360640190fd5b8051156113ec578080602001905160208110156115d957600080fd5b50516113ec576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252602a815260200180611682602a913960400191505060405180910390fd5b3b15159056fe536166654d6174683a206d756c7469706c69636174696f6e206f766572666c6f7743616c6c6572206973206e6f742052657761726473446973747269627574696f6e20636f6e74726163745361666545524332303a204552433230206f7065726174696f6e20646964206e6f742073756363656564a265627a7a72315820f909fa3a0910f3b22e95648cbca716b06606dafe47e4b95662d41e95d993a43764736f6c63430005100032",
}

// StakingRewards is an auto generated Go binding around an Ethereum contract.
type StakingRewards struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *StakingRewards) GetABI() abi.ABI {
	return c.abi
}

// NewStakingRewards creates a new instance of StakingRewards.
func NewStakingRewards() *StakingRewards {
	parsed, err := StakingRewardsMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &StakingRewards{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *StakingRewards) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address _rewardsDistribution, address _rewardsToken, address _stakingToken) returns()
func (stakingRewards *StakingRewards) PackConstructor(_rewardsDistribution common.Address, _rewardsToken common.Address, _stakingToken common.Address) []byte {
	enc, err := stakingRewards.abi.Pack("", _rewardsDistribution, _rewardsToken, _stakingToken)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (stakingRewards *StakingRewards) PackBalanceOf(account common.Address) []byte {
	enc, err := stakingRewards.abi.Pack("balanceOf", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (stakingRewards *StakingRewards) TryPackBalanceOf(account common.Address) ([]byte, error) {
	return stakingRewards.abi.Pack("balanceOf", account)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address account) view returns(uint256)
func (stakingRewards *StakingRewards) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackEarned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x008cc262.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function earned(address account) view returns(uint256)
func (stakingRewards *StakingRewards) PackEarned(account common.Address) []byte {
	enc, err := stakingRewards.abi.Pack("earned", account)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackEarned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x008cc262.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function earned(address account) view returns(uint256)
func (stakingRewards *StakingRewards) TryPackEarned(account common.Address) ([]byte, error) {
	return stakingRewards.abi.Pack("earned", account)
}

// UnpackEarned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x008cc262.
//
// Solidity: function earned(address account) view returns(uint256)
func (stakingRewards *StakingRewards) UnpackEarned(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("earned", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackExit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe9fad8ee.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function exit() returns()
func (stakingRewards *StakingRewards) PackExit() []byte {
	enc, err := stakingRewards.abi.Pack("exit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackExit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe9fad8ee.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function exit() returns()
func (stakingRewards *StakingRewards) TryPackExit() ([]byte, error) {
	return stakingRewards.abi.Pack("exit")
}

// PackGetReward is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3d18b912.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getReward() returns()
func (stakingRewards *StakingRewards) PackGetReward() []byte {
	enc, err := stakingRewards.abi.Pack("getReward")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetReward is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3d18b912.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getReward() returns()
func (stakingRewards *StakingRewards) TryPackGetReward() ([]byte, error) {
	return stakingRewards.abi.Pack("getReward")
}

// PackGetRewardForDuration is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c1f78eb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getRewardForDuration() view returns(uint256)
func (stakingRewards *StakingRewards) PackGetRewardForDuration() []byte {
	enc, err := stakingRewards.abi.Pack("getRewardForDuration")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetRewardForDuration is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1c1f78eb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getRewardForDuration() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackGetRewardForDuration() ([]byte, error) {
	return stakingRewards.abi.Pack("getRewardForDuration")
}

// UnpackGetRewardForDuration is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1c1f78eb.
//
// Solidity: function getRewardForDuration() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackGetRewardForDuration(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("getRewardForDuration", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackLastTimeRewardApplicable is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x80faa57d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function lastTimeRewardApplicable() view returns(uint256)
func (stakingRewards *StakingRewards) PackLastTimeRewardApplicable() []byte {
	enc, err := stakingRewards.abi.Pack("lastTimeRewardApplicable")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLastTimeRewardApplicable is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x80faa57d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function lastTimeRewardApplicable() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackLastTimeRewardApplicable() ([]byte, error) {
	return stakingRewards.abi.Pack("lastTimeRewardApplicable")
}

// UnpackLastTimeRewardApplicable is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x80faa57d.
//
// Solidity: function lastTimeRewardApplicable() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackLastTimeRewardApplicable(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("lastTimeRewardApplicable", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackLastUpdateTime is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc8f33c91.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function lastUpdateTime() view returns(uint256)
func (stakingRewards *StakingRewards) PackLastUpdateTime() []byte {
	enc, err := stakingRewards.abi.Pack("lastUpdateTime")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLastUpdateTime is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc8f33c91.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function lastUpdateTime() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackLastUpdateTime() ([]byte, error) {
	return stakingRewards.abi.Pack("lastUpdateTime")
}

// UnpackLastUpdateTime is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc8f33c91.
//
// Solidity: function lastUpdateTime() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackLastUpdateTime(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("lastUpdateTime", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackNotifyRewardAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c6b16ab.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function notifyRewardAmount(uint256 reward) returns()
func (stakingRewards *StakingRewards) PackNotifyRewardAmount(reward *big.Int) []byte {
	enc, err := stakingRewards.abi.Pack("notifyRewardAmount", reward)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNotifyRewardAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3c6b16ab.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function notifyRewardAmount(uint256 reward) returns()
func (stakingRewards *StakingRewards) TryPackNotifyRewardAmount(reward *big.Int) ([]byte, error) {
	return stakingRewards.abi.Pack("notifyRewardAmount", reward)
}

// PackPeriodFinish is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xebe2b12b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function periodFinish() view returns(uint256)
func (stakingRewards *StakingRewards) PackPeriodFinish() []byte {
	enc, err := stakingRewards.abi.Pack("periodFinish")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPeriodFinish is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xebe2b12b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function periodFinish() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackPeriodFinish() ([]byte, error) {
	return stakingRewards.abi.Pack("periodFinish")
}

// UnpackPeriodFinish is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xebe2b12b.
//
// Solidity: function periodFinish() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackPeriodFinish(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("periodFinish", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewardPerToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd3daf9d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardPerToken() view returns(uint256)
func (stakingRewards *StakingRewards) PackRewardPerToken() []byte {
	enc, err := stakingRewards.abi.Pack("rewardPerToken")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardPerToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd3daf9d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardPerToken() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackRewardPerToken() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardPerToken")
}

// UnpackRewardPerToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xcd3daf9d.
//
// Solidity: function rewardPerToken() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackRewardPerToken(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("rewardPerToken", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewardPerTokenStored is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf136d65.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardPerTokenStored() view returns(uint256)
func (stakingRewards *StakingRewards) PackRewardPerTokenStored() []byte {
	enc, err := stakingRewards.abi.Pack("rewardPerTokenStored")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardPerTokenStored is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf136d65.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardPerTokenStored() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackRewardPerTokenStored() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardPerTokenStored")
}

// UnpackRewardPerTokenStored is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdf136d65.
//
// Solidity: function rewardPerTokenStored() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackRewardPerTokenStored(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("rewardPerTokenStored", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewardRate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b0a47ee.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardRate() view returns(uint256)
func (stakingRewards *StakingRewards) PackRewardRate() []byte {
	enc, err := stakingRewards.abi.Pack("rewardRate")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardRate is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7b0a47ee.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardRate() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackRewardRate() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardRate")
}

// UnpackRewardRate is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7b0a47ee.
//
// Solidity: function rewardRate() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackRewardRate(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("rewardRate", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewards is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0700037d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewards(address ) view returns(uint256)
func (stakingRewards *StakingRewards) PackRewards(arg0 common.Address) []byte {
	enc, err := stakingRewards.abi.Pack("rewards", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewards is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0700037d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewards(address ) view returns(uint256)
func (stakingRewards *StakingRewards) TryPackRewards(arg0 common.Address) ([]byte, error) {
	return stakingRewards.abi.Pack("rewards", arg0)
}

// UnpackRewards is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0700037d.
//
// Solidity: function rewards(address ) view returns(uint256)
func (stakingRewards *StakingRewards) UnpackRewards(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("rewards", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewardsDistribution is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc6df6e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardsDistribution() view returns(address)
func (stakingRewards *StakingRewards) PackRewardsDistribution() []byte {
	enc, err := stakingRewards.abi.Pack("rewardsDistribution")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardsDistribution is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3fc6df6e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardsDistribution() view returns(address)
func (stakingRewards *StakingRewards) TryPackRewardsDistribution() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardsDistribution")
}

// UnpackRewardsDistribution is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3fc6df6e.
//
// Solidity: function rewardsDistribution() view returns(address)
func (stakingRewards *StakingRewards) UnpackRewardsDistribution(data []byte) (common.Address, error) {
	out, err := stakingRewards.abi.Unpack("rewardsDistribution", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRewardsDuration is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x386a9525.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardsDuration() view returns(uint256)
func (stakingRewards *StakingRewards) PackRewardsDuration() []byte {
	enc, err := stakingRewards.abi.Pack("rewardsDuration")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardsDuration is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x386a9525.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardsDuration() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackRewardsDuration() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardsDuration")
}

// UnpackRewardsDuration is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x386a9525.
//
// Solidity: function rewardsDuration() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackRewardsDuration(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("rewardsDuration", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRewardsToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1af0c7d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardsToken() view returns(address)
func (stakingRewards *StakingRewards) PackRewardsToken() []byte {
	enc, err := stakingRewards.abi.Pack("rewardsToken")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRewardsToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1af0c7d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function rewardsToken() view returns(address)
func (stakingRewards *StakingRewards) TryPackRewardsToken() ([]byte, error) {
	return stakingRewards.abi.Pack("rewardsToken")
}

// UnpackRewardsToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd1af0c7d.
//
// Solidity: function rewardsToken() view returns(address)
func (stakingRewards *StakingRewards) UnpackRewardsToken(data []byte) (common.Address, error) {
	out, err := stakingRewards.abi.Unpack("rewardsToken", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa694fc3a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stake(uint256 amount) returns()
func (stakingRewards *StakingRewards) PackStake(amount *big.Int) []byte {
	enc, err := stakingRewards.abi.Pack("stake", amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa694fc3a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stake(uint256 amount) returns()
func (stakingRewards *StakingRewards) TryPackStake(amount *big.Int) ([]byte, error) {
	return stakingRewards.abi.Pack("stake", amount)
}

// PackStakeWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xecd9ba82.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stakeWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) returns()
func (stakingRewards *StakingRewards) PackStakeWithPermit(amount *big.Int, deadline *big.Int, v uint8, r [32]byte, s [32]byte) []byte {
	enc, err := stakingRewards.abi.Pack("stakeWithPermit", amount, deadline, v, r, s)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStakeWithPermit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xecd9ba82.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stakeWithPermit(uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s) returns()
func (stakingRewards *StakingRewards) TryPackStakeWithPermit(amount *big.Int, deadline *big.Int, v uint8, r [32]byte, s [32]byte) ([]byte, error) {
	return stakingRewards.abi.Pack("stakeWithPermit", amount, deadline, v, r, s)
}

// PackStakingToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x72f702f3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stakingToken() view returns(address)
func (stakingRewards *StakingRewards) PackStakingToken() []byte {
	enc, err := stakingRewards.abi.Pack("stakingToken")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStakingToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x72f702f3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stakingToken() view returns(address)
func (stakingRewards *StakingRewards) TryPackStakingToken() ([]byte, error) {
	return stakingRewards.abi.Pack("stakingToken")
}

// UnpackStakingToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x72f702f3.
//
// Solidity: function stakingToken() view returns(address)
func (stakingRewards *StakingRewards) UnpackStakingToken(data []byte) (common.Address, error) {
	out, err := stakingRewards.abi.Unpack("stakingToken", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (stakingRewards *StakingRewards) PackTotalSupply() []byte {
	enc, err := stakingRewards.abi.Pack("totalSupply")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalSupply() view returns(uint256)
func (stakingRewards *StakingRewards) TryPackTotalSupply() ([]byte, error) {
	return stakingRewards.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (stakingRewards *StakingRewards) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackUserRewardPerTokenPaid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8b876347.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function userRewardPerTokenPaid(address ) view returns(uint256)
func (stakingRewards *StakingRewards) PackUserRewardPerTokenPaid(arg0 common.Address) []byte {
	enc, err := stakingRewards.abi.Pack("userRewardPerTokenPaid", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackUserRewardPerTokenPaid is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8b876347.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function userRewardPerTokenPaid(address ) view returns(uint256)
func (stakingRewards *StakingRewards) TryPackUserRewardPerTokenPaid(arg0 common.Address) ([]byte, error) {
	return stakingRewards.abi.Pack("userRewardPerTokenPaid", arg0)
}

// UnpackUserRewardPerTokenPaid is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8b876347.
//
// Solidity: function userRewardPerTokenPaid(address ) view returns(uint256)
func (stakingRewards *StakingRewards) UnpackUserRewardPerTokenPaid(data []byte) (*big.Int, error) {
	out, err := stakingRewards.abi.Unpack("userRewardPerTokenPaid", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 amount) returns()
func (stakingRewards *StakingRewards) PackWithdraw(amount *big.Int) []byte {
	enc, err := stakingRewards.abi.Pack("withdraw", amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 amount) returns()
func (stakingRewards *StakingRewards) TryPackWithdraw(amount *big.Int) ([]byte, error) {
	return stakingRewards.abi.Pack("withdraw", amount)
}

// StakingRewardsRewardAdded represents a RewardAdded event raised by the StakingRewards contract.
type StakingRewardsRewardAdded struct {
	Reward *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const StakingRewardsRewardAddedEventName = "RewardAdded"

// ContractEventName returns the user-defined event name.
func (StakingRewardsRewardAdded) ContractEventName() string {
	return StakingRewardsRewardAddedEventName
}

// UnpackRewardAddedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RewardAdded(uint256 reward)
func (stakingRewards *StakingRewards) UnpackRewardAddedEvent(log *types.Log) (*StakingRewardsRewardAdded, error) {
	event := "RewardAdded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stakingRewards.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StakingRewardsRewardAdded)
	if len(log.Data) > 0 {
		if err := stakingRewards.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stakingRewards.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// StakingRewardsRewardPaid represents a RewardPaid event raised by the StakingRewards contract.
type StakingRewardsRewardPaid struct {
	User   common.Address
	Reward *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const StakingRewardsRewardPaidEventName = "RewardPaid"

// ContractEventName returns the user-defined event name.
func (StakingRewardsRewardPaid) ContractEventName() string {
	return StakingRewardsRewardPaidEventName
}

// UnpackRewardPaidEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RewardPaid(address indexed user, uint256 reward)
func (stakingRewards *StakingRewards) UnpackRewardPaidEvent(log *types.Log) (*StakingRewardsRewardPaid, error) {
	event := "RewardPaid"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stakingRewards.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StakingRewardsRewardPaid)
	if len(log.Data) > 0 {
		if err := stakingRewards.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stakingRewards.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// StakingRewardsStaked represents a Staked event raised by the StakingRewards contract.
type StakingRewardsStaked struct {
	User   common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const StakingRewardsStakedEventName = "Staked"

// ContractEventName returns the user-defined event name.
func (StakingRewardsStaked) ContractEventName() string {
	return StakingRewardsStakedEventName
}

// UnpackStakedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Staked(address indexed user, uint256 amount)
func (stakingRewards *StakingRewards) UnpackStakedEvent(log *types.Log) (*StakingRewardsStaked, error) {
	event := "Staked"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stakingRewards.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StakingRewardsStaked)
	if len(log.Data) > 0 {
		if err := stakingRewards.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stakingRewards.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// StakingRewardsWithdrawn represents a Withdrawn event raised by the StakingRewards contract.
type StakingRewardsWithdrawn struct {
	User   common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const StakingRewardsWithdrawnEventName = "Withdrawn"

// ContractEventName returns the user-defined event name.
func (StakingRewardsWithdrawn) ContractEventName() string {
	return StakingRewardsWithdrawnEventName
}

// UnpackWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawn(address indexed user, uint256 amount)
func (stakingRewards *StakingRewards) UnpackWithdrawnEvent(log *types.Log) (*StakingRewardsWithdrawn, error) {
	event := "Withdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stakingRewards.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StakingRewardsWithdrawn)
	if len(log.Data) > 0 {
		if err := stakingRewards.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stakingRewards.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}
