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

// StakingRewardsFactoryMetaData contains all meta data concerning the StakingRewardsFactory contract.
var StakingRewardsFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_rewardsToken\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"_stakingRewardsGenesis\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"address\",\"name\":\"stakingToken\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"rewardAmount\",\"type\":\"uint256\"}],\"name\":\"deploy\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"isOwner\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"address\",\"name\":\"stakingToken\",\"type\":\"address\"}],\"name\":\"notifyRewardAmount\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[],\"name\":\"notifyRewardAmounts\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"rewardsToken\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[],\"name\":\"stakingRewardsGenesis\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"stakingRewardsInfoByStakingToken\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"stakingRewards\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"rewardAmount\",\"type\":\"uint256\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":true,\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"stakingTokens\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"payable\":false,\"stateMutability\":\"view\",\"type\":\"function\"},{\"constant\":false,\"inputs\":[{\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"transferOwnership\",\"outputs\":[],\"payable\":false,\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "1861177ffc26025e5f5e0fb721d987e35b",
	Bin: "0x608060405234801561001057600080fd5b506040516124d03803806124d08339818101604052604081101561003357600080fd5b508051602090910151600080546001600160a01b03191633178082556040516001600160a01b039190911691907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a3428110156100c45760405162461bcd60e51b815260040180806020018281038252603481526020018061249c6034913960400191505060405180910390fd5b600180546001600160a01b0319166001600160a01b0393909316929092179091556002556123a5806100f76000396000f3fe608060405234801561001057600080fd5b50600436106100c95760003560e01c80638da5cb5b11610081578063ae741d8d1161005b578063ae741d8d1461022b578063d1af0c7d14610233578063f2fde38b1461023b576100c9565b80638da5cb5b146101ed5780638f32d59b146101f5578063a0928c1114610211576100c9565b80636cf8caf8116100b25780636cf8caf81461014f578063715018a6146101b257806381e16298146101ba576100c9565b8063344e5e34146100ce5780634956eaf014610114575b600080fd5b6100eb600480360360208110156100e457600080fd5b503561026e565b6040805173ffffffffffffffffffffffffffffffffffffffff9092168252519081900360200190f35b61014d6004803603604081101561012a57600080fd5b5073ffffffffffffffffffffffffffffffffffffffff81351690602001356102a2565b005b6101826004803603602081101561016557600080fd5b503573ffffffffffffffffffffffffffffffffffffffff16610496565b6040805173ffffffffffffffffffffffffffffffffffffffff909316835260208301919091528051918290030190f35b61014d6104c8565b61014d600480360360208110156101d057600080fd5b503573ffffffffffffffffffffffffffffffffffffffff166105aa565b6100eb61082c565b6101fd610848565b604080519115158252519081900360200190f35b610219610866565b60408051918252519081900360200190f35b61014d61086c565b6100eb610913565b61014d6004803603602081101561025157600080fd5b503573ffffffffffffffffffffffffffffffffffffffff1661092f565b6003818154811061027b57fe5b60009182526020909120015473ffffffffffffffffffffffffffffffffffffffff16905081565b6102aa610848565b61031557604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015290519081900360640190fd5b73ffffffffffffffffffffffffffffffffffffffff8083166000908152600460205260409020805490911615610396576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252602f815260200180612258602f913960400191505060405180910390fd5b600154604051309173ffffffffffffffffffffffffffffffffffffffff169085906103c090610a9f565b73ffffffffffffffffffffffffffffffffffffffff938416815291831660208301529091166040808301919091525190819003606001906000f08015801561040c573d6000803e3d6000fd5b5081547fffffffffffffffffffffffff000000000000000000000000000000000000000090811673ffffffffffffffffffffffffffffffffffffffff9283161783556001928301939093556003805492830181556000527fc2575a0e9e593c00f959f8c92f12db2869c3395a3b0502d05e2516446f71f85b90910180549092169216919091179055565b6004602052600090815260409020805460019091015473ffffffffffffffffffffffffffffffffffffffff9091169082565b6104d0610848565b61053b57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015290519081900360640190fd5b6000805460405173ffffffffffffffffffffffffffffffffffffffff909116907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908390a3600080547fffffffffffffffffffffffff0000000000000000000000000000000000000000169055565b600254421015610605576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260348152602001806123066034913960400191505060405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff80821660009081526004602052604090208054909116610685576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252603781526020018061233a6037913960400191505060405180910390fd5b600181015415610828576001808201805460009182905591548354604080517fa9059cbb00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff9283166004820152602481018690529051919092169263a9059cbb92604480820193602093909283900390910190829087803b15801561071b57600080fd5b505af115801561072f573d6000803e3d6000fd5b505050506040513d602081101561074557600080fd5b505161079c576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252603a8152602001806122cc603a913960400191505060405180910390fd5b8154604080517f3c6b16ab00000000000000000000000000000000000000000000000000000000815260048101849052905173ffffffffffffffffffffffffffffffffffffffff90921691633c6b16ab9160248082019260009290919082900301818387803b15801561080e57600080fd5b505af1158015610822573d6000803e3d6000fd5b50505050505b5050565b60005473ffffffffffffffffffffffffffffffffffffffff1690565b60005473ffffffffffffffffffffffffffffffffffffffff16331490565b60025481565b6003546108c4576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260458152602001806122876045913960600191505060405180910390fd5b60005b60035481101561091057610908600382815481106108e157fe5b60009182526020909120015473ffffffffffffffffffffffffffffffffffffffff166105aa565b6001016108c7565b50565b60015473ffffffffffffffffffffffffffffffffffffffff1681565b610937610848565b6109a257604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f4f776e61626c653a2063616c6c6572206973206e6f7420746865206f776e6572604482015290519081900360640190fd5b6109108173ffffffffffffffffffffffffffffffffffffffff8116610a12576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260268152602001806122326026913960400191505060405180910390fd5b6000805460405173ffffffffffffffffffffffffffffffffffffffff808516939216917f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e091a3600080547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff92909216919091179055565b61178580610aad8339019056fe608060405260006004556000600555624f1a0060065534801561002157600080fd5b506040516117853803806117858339818101604052606081101561004457600080fd5b508051602082015160409092015160018055600280546001600160a01b039485166001600160a01b0319918216179091556003805492851692821692909217909155600080549390921692169190911790556116e0806100a56000396000f3fe608060405234801561001057600080fd5b50600436106101815760003560e01c80637b0a47ee116100d8578063cd3daf9d1161008c578063e9fad8ee11610066578063e9fad8ee14610346578063ebe2b12b1461034e578063ecd9ba821461035657610181565b8063cd3daf9d1461032e578063d1af0c7d14610336578063df136d651461033e57610181565b80638b876347116100bd5780638b876347146102d6578063a694fc3a14610309578063c8f33c911461032657610181565b80637b0a47ee146102c657806380faa57d146102ce57610181565b8063386a95251161013a5780633fc6df6e116101145780633fc6df6e1461025a57806370a082311461028b57806372f702f3146102be57610181565b8063386a95251461022d5780633c6b16ab146102355780633d18b9121461025257610181565b806318160ddd1161016b57806318160ddd146101fe5780631c1f78eb146102065780632e1a7d4d1461020e57610181565b80628cc262146101865780630700037d146101cb575b600080fd5b6101b96004803603602081101561019c57600080fd5b503573ffffffffffffffffffffffffffffffffffffffff1661038e565b60408051918252519081900360200190f35b6101b9600480360360208110156101e157600080fd5b503573ffffffffffffffffffffffffffffffffffffffff1661043e565b6101b9610450565b6101b9610457565b61022b6004803603602081101561022457600080fd5b5035610475565b005b6101b961067d565b61022b6004803603602081101561024b57600080fd5b5035610683565b61022b610955565b610262610acc565b6040805173ffffffffffffffffffffffffffffffffffffffff9092168252519081900360200190f35b6101b9600480360360208110156102a157600080fd5b503573ffffffffffffffffffffffffffffffffffffffff16610ae8565b610262610b10565b6101b9610b2c565b6101b9610b32565b6101b9600480360360208110156102ec57600080fd5b503573ffffffffffffffffffffffffffffffffffffffff16610b40565b61022b6004803603602081101561031f57600080fd5b5035610b52565b6101b9610d57565b6101b9610d5d565b610262610db7565b6101b9610dd3565b61022b610dd9565b6101b9610dfc565b61022b600480360360a081101561036c57600080fd5b5080359060208101359060ff6040820135169060608101359060800135610e02565b73ffffffffffffffffffffffffffffffffffffffff81166000908152600a60209081526040808320546009909252822054610438919061042c90670de0b6b3a764000090610420906103ee906103e2610d5d565b9063ffffffff6110c616565b73ffffffffffffffffffffffffffffffffffffffff88166000908152600c60205260409020549063ffffffff61113d16565b9063ffffffff6111b716565b9063ffffffff61123b16565b92915050565b600a6020526000908152604090205481565b600b545b90565b600061047060065460055461113d90919063ffffffff16565b905090565b6001805481019081905533610488610d5d565b600855610493610b32565b60075573ffffffffffffffffffffffffffffffffffffffff8116156104f4576104bb8161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b6000831161056357604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601160248201527f43616e6e6f742077697468647261772030000000000000000000000000000000604482015290519081900360640190fd5b600b54610576908463ffffffff6110c616565b600b55336000908152600c6020526040902054610599908463ffffffff6110c616565b336000818152600c60205260409020919091556003546105d29173ffffffffffffffffffffffffffffffffffffffff90911690856112af565b60408051848152905133917f7084f5476618d8e60b11ef0d7d3f06914655adb8793e28ff7f018d4c76d505d5919081900360200190a250600154811461067957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b5050565b60065481565b60005473ffffffffffffffffffffffffffffffffffffffff1633146106f3576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252602a815260200180611658602a913960400191505060405180910390fd5b60006106fd610d5d565b600855610708610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610769576107308161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b600454421061078e5760065461078690839063ffffffff6111b716565b6005556107dd565b6004546000906107a4904263ffffffff6110c616565b905060006107bd6005548361113d90919063ffffffff16565b6006549091506107d790610420868463ffffffff61123b16565b60055550505b600254604080517f70a08231000000000000000000000000000000000000000000000000000000008152306004820152905160009273ffffffffffffffffffffffffffffffffffffffff16916370a08231916024808301926020929190829003018186803b15801561084e57600080fd5b505afa158015610862573d6000803e3d6000fd5b505050506040513d602081101561087857600080fd5b505160065490915061089190829063ffffffff6111b716565b600554111561090157604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601860248201527f50726f76696465642072657761726420746f6f20686967680000000000000000604482015290519081900360640190fd5b42600781905560065461091a919063ffffffff61123b16565b6004556040805184815290517fde88a922e0d3b88b24e9623efeb464919c6bf9f66857a65e2bfcf2ce87a9433d9181900360200190a1505050565b6001805481019081905533610968610d5d565b600855610973610b32565b60075573ffffffffffffffffffffffffffffffffffffffff8116156109d45761099b8161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b336000908152600a60205260409020548015610a5757336000818152600a6020526040812055600254610a209173ffffffffffffffffffffffffffffffffffffffff90911690836112af565b60408051828152905133917fe2403640ba68fed3a2f88b7557551d1993f84b99bb10ff833f0cf8db0c5e0486919081900360200190a25b50506001548114610ac957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b50565b60005473ffffffffffffffffffffffffffffffffffffffff1681565b73ffffffffffffffffffffffffffffffffffffffff166000908152600c602052604090205490565b60035473ffffffffffffffffffffffffffffffffffffffff1681565b60055481565b600061047042600454611341565b60096020526000908152604090205481565b6001805481019081905533610b65610d5d565b600855610b70610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610bd157610b988161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b60008311610c4057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600e60248201527f43616e6e6f74207374616b652030000000000000000000000000000000000000604482015290519081900360640190fd5b600b54610c53908463ffffffff61123b16565b600b55336000908152600c6020526040902054610c76908463ffffffff61123b16565b336000818152600c6020526040902091909155600354610cb09173ffffffffffffffffffffffffffffffffffffffff909116903086611357565b60408051848152905133917f9e71bc8eea02a63969f509818f2dafb9254532904319f9dbda79b67bd34a5f3d919081900360200190a250600154811461067957604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b60075481565b6000600b5460001415610d735750600854610454565b610470610da8600b54610420670de0b6b3a7640000610d9c600554610d9c6007546103e2610b32565b9063ffffffff61113d16565b6008549063ffffffff61123b16565b60025473ffffffffffffffffffffffffffffffffffffffff1681565b60085481565b336000908152600c6020526040902054610df290610475565b610dfa610955565b565b60045481565b6001805481019081905533610e15610d5d565b600855610e20610b32565b60075573ffffffffffffffffffffffffffffffffffffffff811615610e8157610e488161038e565b73ffffffffffffffffffffffffffffffffffffffff82166000908152600a60209081526040808320939093556008546009909152919020555b60008711610ef057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600e60248201527f43616e6e6f74207374616b652030000000000000000000000000000000000000604482015290519081900360640190fd5b600b54610f03908863ffffffff61123b16565b600b55336000908152600c6020526040902054610f26908863ffffffff61123b16565b336000818152600c60205260408082209390935560035483517fd505accf0000000000000000000000000000000000000000000000000000000081526004810193909352306024840152604483018b9052606483018a905260ff8916608484015260a4830188905260c48301879052925173ffffffffffffffffffffffffffffffffffffffff9093169263d505accf9260e480820193929182900301818387803b158015610fd357600080fd5b505af1158015610fe7573d6000803e3d6000fd5b5050600354611017925073ffffffffffffffffffffffffffffffffffffffff16905033308a63ffffffff61135716565b60408051888152905133917f9e71bc8eea02a63969f509818f2dafb9254532904319f9dbda79b67bd34a5f3d919081900360200190a25060015481146110be57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5265656e7472616e637947756172643a207265656e7472616e742063616c6c00604482015290519081900360640190fd5b505050505050565b60008282111561113757604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601e60248201527f536166654d6174683a207375627472616374696f6e206f766572666c6f770000604482015290519081900360640190fd5b50900390565b60008261114c57506000610438565b8282028284828161115957fe5b04146111b0576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260218152602001806116376021913960400191505060405180910390fd5b9392505050565b600080821161122757604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601a60248201527f536166654d6174683a206469766973696f6e206279207a65726f000000000000604482015290519081900360640190fd5b600082848161123257fe5b04949350505050565b6000828201838110156111b057604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601b60248201527f536166654d6174683a206164646974696f6e206f766572666c6f770000000000604482015290519081900360640190fd5b6040805173ffffffffffffffffffffffffffffffffffffffff8416602482015260448082018490528251808303909101815260649091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167fa9059cbb0000000000000000000000000000000000000000000000000000000017905261133c9084906113f2565b505050565b600081831061135057816111b0565b5090919050565b6040805173ffffffffffffffffffffffffffffffffffffffff85811660248301528416604482015260648082018490528251808303909101815260849091019091526020810180517bffffffffffffffffffffffffffffffffffffffffffffffffffffffff167f23b872dd000000000000000000000000000000000000000000000000000000001790526113ec9085906113f2565b50505050565b6114118273ffffffffffffffffffffffffffffffffffffffff16611630565b61147c57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601f60248201527f5361666545524332303a2063616c6c20746f206e6f6e2d636f6e747261637400604482015290519081900360640190fd5b600060608373ffffffffffffffffffffffffffffffffffffffff16836040518082805190602001908083835b602083106114e557805182527fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe090920191602091820191016114a8565b6001836020036101000a0380198251168184511680821785525050505050509050019150506000604051808303816000865af19150503d8060008114611547576040519150601f19603f3d011682016040523d82523d6000602084013e61154c565b606091505b5091509150816115bd57604080517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820181905260248201527f5361666545524332303a206c6f772d6c6576656c2063616c6c206661696c6564604482015290519081900360640190fd5b8051156113ec578080602001905160208110156115d957600080fd5b50516113ec576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252602a815260200180611682602a913960400191505060405180910390fd5b3b15159056fe536166654d6174683a206d756c7469706c69636174696f6e206f766572666c6f7743616c6c6572206973206e6f742052657761726473446973747269627574696f6e20636f6e74726163745361666545524332303a204552433230206f7065726174696f6e20646964206e6f742073756363656564a265627a7a72315820f909fa3a0910f3b22e95648cbca716b06606dafe47e4b95662d41e95d993a43764736f6c634300051000324f776e61626c653a206e6577206f776e657220697320746865207a65726f20616464726573735374616b696e6752657761726473466163746f72793a3a6465706c6f793a20616c7265616479206465706c6f7965645374616b696e6752657761726473466163746f72793a3a6e6f74696679526577617264416d6f756e74733a2063616c6c6564206265666f726520616e79206465706c6f79735374616b696e6752657761726473466163746f72793a3a6e6f74696679526577617264416d6f756e743a207472616e73666572206661696c65645374616b696e6752657761726473466163746f72793a3a6e6f74696679526577617264416d6f756e743a206e6f742072656164795374616b696e6752657761726473466163746f72793a3a6e6f74696679526577617264416d6f756e743a206e6f74206465706c6f796564a265627a7a72315820f4f9d1cdb69b440639979efcf0ec5f0caa268d27ae16fd059e98453adc74f13a64736f6c634300051000325374616b696e6752657761726473466163746f72793a3a636f6e7374727563746f723a2067656e6573697320746f6f20736f6f6e",
}

// StakingRewardsFactory is an auto generated Go binding around an Ethereum contract.
type StakingRewardsFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *StakingRewardsFactory) GetABI() abi.ABI {
	return c.abi
}

// NewStakingRewardsFactory creates a new instance of StakingRewardsFactory.
func NewStakingRewardsFactory() *StakingRewardsFactory {
	parsed, err := StakingRewardsFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &StakingRewardsFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *StakingRewardsFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address _rewardsToken, uint256 _stakingRewardsGenesis) returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackConstructor(_rewardsToken common.Address, _stakingRewardsGenesis *big.Int) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("", _rewardsToken, _stakingRewardsGenesis)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDeploy is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4956eaf0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deploy(address stakingToken, uint256 rewardAmount) returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackDeploy(stakingToken common.Address, rewardAmount *big.Int) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("deploy", stakingToken, rewardAmount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeploy is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4956eaf0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deploy(address stakingToken, uint256 rewardAmount) returns()
func (stakingRewardsFactory *StakingRewardsFactory) TryPackDeploy(stakingToken common.Address, rewardAmount *big.Int) ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("deploy", stakingToken, rewardAmount)
}

// PackIsOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f32d59b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isOwner() view returns(bool)
func (stakingRewardsFactory *StakingRewardsFactory) PackIsOwner() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("isOwner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8f32d59b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isOwner() view returns(bool)
func (stakingRewardsFactory *StakingRewardsFactory) TryPackIsOwner() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("isOwner")
}

// UnpackIsOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8f32d59b.
//
// Solidity: function isOwner() view returns(bool)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackIsOwner(data []byte) (bool, error) {
	out, err := stakingRewardsFactory.abi.Unpack("isOwner", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackNotifyRewardAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x81e16298.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function notifyRewardAmount(address stakingToken) returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackNotifyRewardAmount(stakingToken common.Address) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("notifyRewardAmount", stakingToken)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNotifyRewardAmount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x81e16298.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function notifyRewardAmount(address stakingToken) returns()
func (stakingRewardsFactory *StakingRewardsFactory) TryPackNotifyRewardAmount(stakingToken common.Address) ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("notifyRewardAmount", stakingToken)
}

// PackNotifyRewardAmounts is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xae741d8d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function notifyRewardAmounts() returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackNotifyRewardAmounts() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("notifyRewardAmounts")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNotifyRewardAmounts is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xae741d8d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function notifyRewardAmounts() returns()
func (stakingRewardsFactory *StakingRewardsFactory) TryPackNotifyRewardAmounts() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("notifyRewardAmounts")
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) PackOwner() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) TryPackOwner() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackOwner(data []byte) (common.Address, error) {
	out, err := stakingRewardsFactory.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function renounceOwnership() returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackRenounceOwnership() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("renounceOwnership")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRenounceOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x715018a6.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function renounceOwnership() returns()
func (stakingRewardsFactory *StakingRewardsFactory) TryPackRenounceOwnership() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("renounceOwnership")
}

// PackRewardsToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1af0c7d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function rewardsToken() view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) PackRewardsToken() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("rewardsToken")
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
func (stakingRewardsFactory *StakingRewardsFactory) TryPackRewardsToken() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("rewardsToken")
}

// UnpackRewardsToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd1af0c7d.
//
// Solidity: function rewardsToken() view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackRewardsToken(data []byte) (common.Address, error) {
	out, err := stakingRewardsFactory.abi.Unpack("rewardsToken", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackStakingRewardsGenesis is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0928c11.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stakingRewardsGenesis() view returns(uint256)
func (stakingRewardsFactory *StakingRewardsFactory) PackStakingRewardsGenesis() []byte {
	enc, err := stakingRewardsFactory.abi.Pack("stakingRewardsGenesis")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStakingRewardsGenesis is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa0928c11.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stakingRewardsGenesis() view returns(uint256)
func (stakingRewardsFactory *StakingRewardsFactory) TryPackStakingRewardsGenesis() ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("stakingRewardsGenesis")
}

// UnpackStakingRewardsGenesis is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa0928c11.
//
// Solidity: function stakingRewardsGenesis() view returns(uint256)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackStakingRewardsGenesis(data []byte) (*big.Int, error) {
	out, err := stakingRewardsFactory.abi.Unpack("stakingRewardsGenesis", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackStakingRewardsInfoByStakingToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6cf8caf8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stakingRewardsInfoByStakingToken(address ) view returns(address stakingRewards, uint256 rewardAmount)
func (stakingRewardsFactory *StakingRewardsFactory) PackStakingRewardsInfoByStakingToken(arg0 common.Address) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("stakingRewardsInfoByStakingToken", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStakingRewardsInfoByStakingToken is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6cf8caf8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stakingRewardsInfoByStakingToken(address ) view returns(address stakingRewards, uint256 rewardAmount)
func (stakingRewardsFactory *StakingRewardsFactory) TryPackStakingRewardsInfoByStakingToken(arg0 common.Address) ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("stakingRewardsInfoByStakingToken", arg0)
}

// StakingRewardsInfoByStakingTokenOutput serves as a container for the return parameters of contract
// method StakingRewardsInfoByStakingToken.
type StakingRewardsInfoByStakingTokenOutput struct {
	StakingRewards common.Address
	RewardAmount   *big.Int
}

// UnpackStakingRewardsInfoByStakingToken is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6cf8caf8.
//
// Solidity: function stakingRewardsInfoByStakingToken(address ) view returns(address stakingRewards, uint256 rewardAmount)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackStakingRewardsInfoByStakingToken(data []byte) (StakingRewardsInfoByStakingTokenOutput, error) {
	out, err := stakingRewardsFactory.abi.Unpack("stakingRewardsInfoByStakingToken", data)
	outstruct := new(StakingRewardsInfoByStakingTokenOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.StakingRewards = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.RewardAmount = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackStakingTokens is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x344e5e34.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function stakingTokens(uint256 ) view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) PackStakingTokens(arg0 *big.Int) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("stakingTokens", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackStakingTokens is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x344e5e34.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function stakingTokens(uint256 ) view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) TryPackStakingTokens(arg0 *big.Int) ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("stakingTokens", arg0)
}

// UnpackStakingTokens is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x344e5e34.
//
// Solidity: function stakingTokens(uint256 ) view returns(address)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackStakingTokens(data []byte) (common.Address, error) {
	out, err := stakingRewardsFactory.abi.Unpack("stakingTokens", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (stakingRewardsFactory *StakingRewardsFactory) PackTransferOwnership(newOwner common.Address) []byte {
	enc, err := stakingRewardsFactory.abi.Pack("transferOwnership", newOwner)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferOwnership is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xf2fde38b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferOwnership(address newOwner) returns()
func (stakingRewardsFactory *StakingRewardsFactory) TryPackTransferOwnership(newOwner common.Address) ([]byte, error) {
	return stakingRewardsFactory.abi.Pack("transferOwnership", newOwner)
}

// StakingRewardsFactoryOwnershipTransferred represents a OwnershipTransferred event raised by the StakingRewardsFactory contract.
type StakingRewardsFactoryOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const StakingRewardsFactoryOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (StakingRewardsFactoryOwnershipTransferred) ContractEventName() string {
	return StakingRewardsFactoryOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (stakingRewardsFactory *StakingRewardsFactory) UnpackOwnershipTransferredEvent(log *types.Log) (*StakingRewardsFactoryOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != stakingRewardsFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(StakingRewardsFactoryOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := stakingRewardsFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range stakingRewardsFactory.abi.Events[event].Inputs {
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
