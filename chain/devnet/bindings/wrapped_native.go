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

// WrappedNativeMetaData contains all meta data concerning the WrappedNative contract.
var WrappedNativeMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"guy\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Deposit\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"Withdrawal\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"guy\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"deposit\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"src\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"dst\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"wad\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "00a1980f4b337662727181a8da157ef53d",
	Bin: "0x608060405234801561000f575f5ffd5b50604051610b46380380610b4683398101604081905261002e916100eb565b5f61003983826101d4565b50600161004682826101d4565b50505061028e565b634e487b7160e01b5f52604160045260245ffd5b5f82601f830112610071575f5ffd5b81516001600160401b0381111561008a5761008a61004e565b604051601f8201601f19908116603f011681016001600160401b03811182821017156100b8576100b861004e565b6040528181528382016020018510156100cf575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f604083850312156100fc575f5ffd5b82516001600160401b03811115610111575f5ffd5b61011d85828601610062565b602085015190935090506001600160401b0381111561013a575f5ffd5b61014685828601610062565b9150509250929050565b600181811c9082168061016457607f821691505b60208210810361018257634e487b7160e01b5f52602260045260245ffd5b50919050565b601f8211156101cf57805f5260205f20601f840160051c810160208510156101ad5750805b601f840160051c820191505b818110156101cc575f81556001016101b9565b50505b505050565b81516001600160401b038111156101ed576101ed61004e565b610201816101fb8454610150565b84610188565b6020601f821160018114610233575f831561021c5750848201515b5f19600385901b1c1916600184901b1784556101cc565b5f84815260208120601f198516915b828110156102625787850151825560209485019460019092019101610242565b508482101561027f57868401515f19600387901b60f8161c191681555b50505050600190811b01905550565b6108ab8061029b5f395ff3fe60806040526004361061009d575f3560e01c8063313ce56711610062578063313ce5671461016357806370a082311461018957806395d89b41146101b4578063a9059cbb146101c8578063d0e30db0146101e7578063dd62ed3e146101ef575f5ffd5b806306fdde03146100b0578063095ea7b3146100da57806318160ddd1461010957806323b872dd146101255780632e1a7d4d14610144575f5ffd5b366100ac576100aa610225565b005b5f5ffd5b3480156100bb575f5ffd5b506100c461027f565b6040516100d191906106ad565b60405180910390f35b3480156100e5575f5ffd5b506100f96100f43660046106fd565b61030a565b60405190151581526020016100d1565b348015610114575f5ffd5b50475b6040519081526020016100d1565b348015610130575f5ffd5b506100f961013f366004610725565b610376565b34801561014f575f5ffd5b506100aa61015e36600461075f565b610560565b34801561016e575f5ffd5b50610177601281565b60405160ff90911681526020016100d1565b348015610194575f5ffd5b506101176101a3366004610776565b60026020525f908152604090205481565b3480156101bf575f5ffd5b506100c461068d565b3480156101d3575f5ffd5b506100f96101e23660046106fd565b61069a565b6100aa610225565b3480156101fa575f5ffd5b5061011761020936600461078f565b600360209081525f928352604080842090915290825290205481565b335f90815260026020526040812080543492906102439084906107d4565b909155505060405134815233907fe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c9060200160405180910390a2565b5f805461028b906107e7565b80601f01602080910402602001604051908101604052809291908181526020018280546102b7906107e7565b80156103025780601f106102d957610100808354040283529160200191610302565b820191905f5260205f20905b8154815290600101906020018083116102e557829003601f168201915b505050505081565b335f8181526003602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906103649086815260200190565b60405180910390a35060015b92915050565b6001600160a01b0383165f908152600260205260408120548211156103b65760405162461bcd60e51b81526004016103ad9061081f565b60405180910390fd5b6001600160a01b03841633148015906103f257506001600160a01b0384165f9081526003602090815260408083203384529091529020545f1914155b156104af576001600160a01b0384165f9081526003602090815260408083203384529091529020548211156104775760405162461bcd60e51b815260206004820152602560248201527f577261707065644e61746976653a20696e73756666696369656e7420616c6c6f60448201526477616e636560d81b60648201526084016103ad565b6001600160a01b0384165f908152600360209081526040808320338452909152812080548492906104a9908490610862565b90915550505b6001600160a01b0384165f90815260026020526040812080548492906104d6908490610862565b90915550506001600160a01b0383165f90815260026020526040812080548492906105029084906107d4565b92505081905550826001600160a01b0316846001600160a01b03167fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef8460405161054e91815260200190565b60405180910390a35060019392505050565b335f9081526002602052604090205481111561058e5760405162461bcd60e51b81526004016103ad9061081f565b335f90815260026020526040812080548392906105ac908490610862565b90915550506040515f90339083908381818185875af1925050503d805f81146105f0576040519150601f19603f3d011682016040523d82523d5f602084013e6105f5565b606091505b50509050806106545760405162461bcd60e51b815260206004820152602560248201527f577261707065644e61746976653a206e6174697665207472616e736665722066604482015264185a5b195960da1b60648201526084016103ad565b60405182815233907f7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b659060200160405180910390a25050565b6001805461028b906107e7565b5f6106a6338484610376565b9392505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b80356001600160a01b03811681146106f8575f5ffd5b919050565b5f5f6040838503121561070e575f5ffd5b610717836106e2565b946020939093013593505050565b5f5f5f60608486031215610737575f5ffd5b610740846106e2565b925061074e602085016106e2565b929592945050506040919091013590565b5f6020828403121561076f575f5ffd5b5035919050565b5f60208284031215610786575f5ffd5b6106a6826106e2565b5f5f604083850312156107a0575f5ffd5b6107a9836106e2565b91506107b7602084016106e2565b90509250929050565b634e487b7160e01b5f52601160045260245ffd5b80820180821115610370576103706107c0565b600181811c908216806107fb57607f821691505b60208210810361081957634e487b7160e01b5f52602260045260245ffd5b50919050565b60208082526023908201527f577261707065644e61746976653a20696e73756666696369656e742062616c616040820152626e636560e81b606082015260800190565b81810381811115610370576103706107c056fea2646970667358221220cc856027ce7cc87601ad367ead882c1daf25684a255330a7403e62da2a71e0b664736f6c634300081c0033",
}

// WrappedNative is an auto generated Go binding around an Ethereum contract.
type WrappedNative struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *WrappedNative) GetABI() abi.ABI {
	return c.abi
}

// NewWrappedNative creates a new instance of WrappedNative.
func NewWrappedNative() *WrappedNative {
	parsed, err := WrappedNativeMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &WrappedNative{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *WrappedNative) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_) returns()
func (wrappedNative *WrappedNative) PackConstructor(name_ string, symbol_ string) []byte {
	enc, err := wrappedNative.abi.Pack("", name_, symbol_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := wrappedNative.abi.Pack("allowance", arg0, arg1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return wrappedNative.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (wrappedNative *WrappedNative) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("allowance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) PackApprove(guy common.Address, wad *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("approve", guy, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) TryPackApprove(guy common.Address, wad *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("approve", guy, wad)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address guy, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) UnpackApprove(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("approve", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := wrappedNative.abi.Pack("balanceOf", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBalanceOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x70a08231.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return wrappedNative.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (wrappedNative *WrappedNative) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) PackDecimals() []byte {
	enc, err := wrappedNative.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) TryPackDecimals() ([]byte, error) {
	return wrappedNative.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (wrappedNative *WrappedNative) UnpackDecimals(data []byte) (uint8, error) {
	out, err := wrappedNative.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function deposit() payable returns()
func (wrappedNative *WrappedNative) PackDeposit() []byte {
	enc, err := wrappedNative.abi.Pack("deposit")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDeposit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd0e30db0.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function deposit() payable returns()
func (wrappedNative *WrappedNative) TryPackDeposit() ([]byte, error) {
	return wrappedNative.abi.Pack("deposit")
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) PackName() []byte {
	enc, err := wrappedNative.abi.Pack("name")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) TryPackName() ([]byte, error) {
	return wrappedNative.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (wrappedNative *WrappedNative) UnpackName(data []byte) (string, error) {
	out, err := wrappedNative.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) PackSymbol() []byte {
	enc, err := wrappedNative.abi.Pack("symbol")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) TryPackSymbol() ([]byte, error) {
	return wrappedNative.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (wrappedNative *WrappedNative) UnpackSymbol(data []byte) (string, error) {
	out, err := wrappedNative.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackTotalSupply is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x18160ddd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedNative *WrappedNative) PackTotalSupply() []byte {
	enc, err := wrappedNative.abi.Pack("totalSupply")
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
func (wrappedNative *WrappedNative) TryPackTotalSupply() ([]byte, error) {
	return wrappedNative.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (wrappedNative *WrappedNative) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := wrappedNative.abi.Unpack("totalSupply", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) PackTransfer(dst common.Address, wad *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("transfer", dst, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) TryPackTransfer(dst common.Address, wad *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("transfer", dst, wad)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) UnpackTransfer(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("transfer", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) PackTransferFrom(src common.Address, dst common.Address, wad *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("transferFrom", src, dst, wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) TryPackTransferFrom(src common.Address, dst common.Address, wad *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("transferFrom", src, dst, wad)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address src, address dst, uint256 wad) returns(bool)
func (wrappedNative *WrappedNative) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := wrappedNative.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 wad) returns()
func (wrappedNative *WrappedNative) PackWithdraw(wad *big.Int) []byte {
	enc, err := wrappedNative.abi.Pack("withdraw", wad)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x2e1a7d4d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 wad) returns()
func (wrappedNative *WrappedNative) TryPackWithdraw(wad *big.Int) ([]byte, error) {
	return wrappedNative.abi.Pack("withdraw", wad)
}

// WrappedNativeApproval represents a Approval event raised by the WrappedNative contract.
type WrappedNativeApproval struct {
	Src common.Address
	Guy common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WrappedNativeApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (WrappedNativeApproval) ContractEventName() string {
	return WrappedNativeApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed src, address indexed guy, uint256 wad)
func (wrappedNative *WrappedNative) UnpackApprovalEvent(log *types.Log) (*WrappedNativeApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeApproval)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
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

// WrappedNativeDeposit represents a Deposit event raised by the WrappedNative contract.
type WrappedNativeDeposit struct {
	Dst common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WrappedNativeDepositEventName = "Deposit"

// ContractEventName returns the user-defined event name.
func (WrappedNativeDeposit) ContractEventName() string {
	return WrappedNativeDepositEventName
}

// UnpackDepositEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Deposit(address indexed dst, uint256 wad)
func (wrappedNative *WrappedNative) UnpackDepositEvent(log *types.Log) (*WrappedNativeDeposit, error) {
	event := "Deposit"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeDeposit)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
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

// WrappedNativeTransfer represents a Transfer event raised by the WrappedNative contract.
type WrappedNativeTransfer struct {
	Src common.Address
	Dst common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WrappedNativeTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (WrappedNativeTransfer) ContractEventName() string {
	return WrappedNativeTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed src, address indexed dst, uint256 wad)
func (wrappedNative *WrappedNative) UnpackTransferEvent(log *types.Log) (*WrappedNativeTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeTransfer)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
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

// WrappedNativeWithdrawal represents a Withdrawal event raised by the WrappedNative contract.
type WrappedNativeWithdrawal struct {
	Src common.Address
	Wad *big.Int
	Raw *types.Log // Blockchain specific contextual infos
}

const WrappedNativeWithdrawalEventName = "Withdrawal"

// ContractEventName returns the user-defined event name.
func (WrappedNativeWithdrawal) ContractEventName() string {
	return WrappedNativeWithdrawalEventName
}

// UnpackWithdrawalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawal(address indexed src, uint256 wad)
func (wrappedNative *WrappedNative) UnpackWithdrawalEvent(log *types.Log) (*WrappedNativeWithdrawal, error) {
	event := "Withdrawal"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != wrappedNative.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(WrappedNativeWithdrawal)
	if len(log.Data) > 0 {
		if err := wrappedNative.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range wrappedNative.abi.Events[event].Inputs {
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
