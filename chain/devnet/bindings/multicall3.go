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

// Multicall3Call3 is an auto generated low-level Go binding around an user-defined struct.
type Multicall3Call3 struct {
	Target       common.Address
	AllowFailure bool
	CallData     []byte
}

// Multicall3Result is an auto generated low-level Go binding around an user-defined struct.
type Multicall3Result struct {
	Success    bool
	ReturnData []byte
}

// Multicall3MetaData contains all meta data concerning the Multicall3 contract.
var Multicall3MetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"target\",\"type\":\"address\"},{\"internalType\":\"bool\",\"name\":\"allowFailure\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"callData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Call3[]\",\"name\":\"calls\",\"type\":\"tuple[]\"}],\"name\":\"aggregate3\",\"outputs\":[{\"components\":[{\"internalType\":\"bool\",\"name\":\"success\",\"type\":\"bool\"},{\"internalType\":\"bytes\",\"name\":\"returnData\",\"type\":\"bytes\"}],\"internalType\":\"structMulticall3.Result[]\",\"name\":\"returnData\",\"type\":\"tuple[]\"}],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getBlockNumber\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"blockNumber\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getChainId\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"chainid\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getCurrentBlockTimestamp\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"timestamp\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"getEthBalance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "e750cb4a5dd600aa5cf81f03f64311d135",
	Bin: "0x6080604052348015600e575f5ffd5b506104c28061001c5f395ff3fe608060405260043610610049575f3560e01c80630f28c97d1461004d5780633408e4701461006e57806342cbb15c146100805780634d2301cc1461009257806382ad56cb146100b9575b5f5ffd5b348015610058575f5ffd5b50425b6040519081526020015b60405180910390f35b348015610079575f5ffd5b504661005b565b34801561008b575f5ffd5b504361005b565b34801561009d575f5ffd5b5061005b6100ac366004610295565b6001600160a01b03163190565b6100cc6100c73660046102c2565b6100d9565b6040516100659190610333565b6060818067ffffffffffffffff8111156100f5576100f56103ce565b60405190808252806020026020018201604052801561013a57816020015b604080518082019091525f8152606060208201528152602001906001900390816101135790505b5091505f5b8181101561028d573685858381811061015a5761015a6103e2565b905060200281019061016c91906103f6565b90505f8061017d6020840184610295565b6001600160a01b03166101936040850185610414565b6040516101a192919061045e565b5f604051808303815f865af19150503d805f81146101da576040519150601f19603f3d011682016040523d82523d5f602084013e6101df565b606091505b509150915081806101fb57506101fb604084016020850161046d565b61024b5760405162461bcd60e51b815260206004820152601760248201527f4d756c746963616c6c333a2063616c6c206661696c6564000000000000000000604482015260640160405180910390fd5b6040518060400160405280831515815260200182815250868581518110610274576102746103e2565b602002602001018190525050505080600101905061013f565b505092915050565b5f602082840312156102a5575f5ffd5b81356001600160a01b03811681146102bb575f5ffd5b9392505050565b5f5f602083850312156102d3575f5ffd5b823567ffffffffffffffff8111156102e9575f5ffd5b8301601f810185136102f9575f5ffd5b803567ffffffffffffffff81111561030f575f5ffd5b8560208260051b8401011115610323575f5ffd5b6020919091019590945092505050565b5f602082016020835280845180835260408501915060408160051b8601019250602086015f5b828110156103c257603f198786030184528151805115158652602081015190506040602087015280518060408801528060208301606089015e5f606082890101526060601f19601f83011688010196505050602082019150602084019350600181019050610359565b50929695505050505050565b634e487b7160e01b5f52604160045260245ffd5b634e487b7160e01b5f52603260045260245ffd5b5f8235605e1983360301811261040a575f5ffd5b9190910192915050565b5f5f8335601e19843603018112610429575f5ffd5b83018035915067ffffffffffffffff821115610443575f5ffd5b602001915036819003821315610457575f5ffd5b9250929050565b818382375f9101908152919050565b5f6020828403121561047d575f5ffd5b813580151581146102bb575f5ffdfea264697066735822122061960c9fc245f6f4030f1e9d367ed3f4e04039791defb82b252ae74542e3652c64736f6c634300081c0033",
}

// Multicall3 is an auto generated Go binding around an Ethereum contract.
type Multicall3 struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Multicall3) GetABI() abi.ABI {
	return c.abi
}

// NewMulticall3 creates a new instance of Multicall3.
func NewMulticall3() *Multicall3 {
	parsed, err := Multicall3MetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Multicall3{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Multicall3) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAggregate3 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82ad56cb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) PackAggregate3(calls []Multicall3Call3) []byte {
	enc, err := multicall3.abi.Pack("aggregate3", calls)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAggregate3 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x82ad56cb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) TryPackAggregate3(calls []Multicall3Call3) ([]byte, error) {
	return multicall3.abi.Pack("aggregate3", calls)
}

// UnpackAggregate3 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x82ad56cb.
//
// Solidity: function aggregate3((address,bool,bytes)[] calls) payable returns((bool,bytes)[] returnData)
func (multicall3 *Multicall3) UnpackAggregate3(data []byte) ([]Multicall3Result, error) {
	out, err := multicall3.abi.Unpack("aggregate3", data)
	if err != nil {
		return *new([]Multicall3Result), err
	}
	out0 := *abi.ConvertType(out[0], new([]Multicall3Result)).(*[]Multicall3Result)
	return out0, nil
}

// PackGetBlockNumber is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42cbb15c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getBlockNumber() view returns(uint256 blockNumber)
func (multicall3 *Multicall3) PackGetBlockNumber() []byte {
	enc, err := multicall3.abi.Pack("getBlockNumber")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetBlockNumber is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x42cbb15c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getBlockNumber() view returns(uint256 blockNumber)
func (multicall3 *Multicall3) TryPackGetBlockNumber() ([]byte, error) {
	return multicall3.abi.Pack("getBlockNumber")
}

// UnpackGetBlockNumber is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x42cbb15c.
//
// Solidity: function getBlockNumber() view returns(uint256 blockNumber)
func (multicall3 *Multicall3) UnpackGetBlockNumber(data []byte) (*big.Int, error) {
	out, err := multicall3.abi.Unpack("getBlockNumber", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getChainId() view returns(uint256 chainid)
func (multicall3 *Multicall3) PackGetChainId() []byte {
	enc, err := multicall3.abi.Pack("getChainId")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getChainId() view returns(uint256 chainid)
func (multicall3 *Multicall3) TryPackGetChainId() ([]byte, error) {
	return multicall3.abi.Pack("getChainId")
}

// UnpackGetChainId is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3408e470.
//
// Solidity: function getChainId() view returns(uint256 chainid)
func (multicall3 *Multicall3) UnpackGetChainId(data []byte) (*big.Int, error) {
	out, err := multicall3.abi.Unpack("getChainId", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetCurrentBlockTimestamp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0f28c97d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getCurrentBlockTimestamp() view returns(uint256 timestamp)
func (multicall3 *Multicall3) PackGetCurrentBlockTimestamp() []byte {
	enc, err := multicall3.abi.Pack("getCurrentBlockTimestamp")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetCurrentBlockTimestamp is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0f28c97d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getCurrentBlockTimestamp() view returns(uint256 timestamp)
func (multicall3 *Multicall3) TryPackGetCurrentBlockTimestamp() ([]byte, error) {
	return multicall3.abi.Pack("getCurrentBlockTimestamp")
}

// UnpackGetCurrentBlockTimestamp is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0f28c97d.
//
// Solidity: function getCurrentBlockTimestamp() view returns(uint256 timestamp)
func (multicall3 *Multicall3) UnpackGetCurrentBlockTimestamp(data []byte) (*big.Int, error) {
	out, err := multicall3.abi.Unpack("getCurrentBlockTimestamp", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackGetEthBalance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4d2301cc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getEthBalance(address addr) view returns(uint256 balance)
func (multicall3 *Multicall3) PackGetEthBalance(addr common.Address) []byte {
	enc, err := multicall3.abi.Pack("getEthBalance", addr)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetEthBalance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4d2301cc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getEthBalance(address addr) view returns(uint256 balance)
func (multicall3 *Multicall3) TryPackGetEthBalance(addr common.Address) ([]byte, error) {
	return multicall3.abi.Pack("getEthBalance", addr)
}

// UnpackGetEthBalance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4d2301cc.
//
// Solidity: function getEthBalance(address addr) view returns(uint256 balance)
func (multicall3 *Multicall3) UnpackGetEthBalance(data []byte) (*big.Int, error) {
	out, err := multicall3.abi.Unpack("getEthBalance", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}
