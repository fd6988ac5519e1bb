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

// TaxTokenMetaData contains all meta data concerning the TaxToken contract.
var TaxTokenMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"string\",\"name\":\"name_\",\"type\":\"string\"},{\"internalType\":\"string\",\"name\":\"symbol_\",\"type\":\"string\"},{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"HoneypotSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"previousOwner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"newOwner\",\"type\":\"address\"}],\"name\":\"OwnershipTransferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"}],\"name\":\"PairSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"buyTaxBps\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"sellTaxBps\",\"type\":\"uint256\"}],\"name\":\"TaxesSet\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_BPS\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"buyTaxBps\",\"outputs\":[{\"internalType\":\"uint16\",\"name\":\"\",\"type\":\"uint16\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"honeypot\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"mint\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"pair\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"renounceOwnership\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"sellTaxBps\",\"outputs\":[{\"internalType\":\"uint16\",\"name\":\"\",\"type\":\"uint16\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"enabled\",\"type\":\"bool\"}],\"name\":\"setHoneypot\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pair_\",\"type\":\"address\"}],\"name\":\"setPair\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"buyBps\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"sellBps\",\"type\":\"uint256\"}],\"name\":\"setTaxes\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "78696cd13b249efb0272b3d717729baffe",
	Bin: "0x60a060405234801561000f575f5ffd5b506040516110f73803806110f783398101604081905261002e91610139565b828282600361003d848261023a565b50600461004a838261023a565b5060ff8116608052600580546001600160a01b031916339081179091556040515f907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908290a35050505050506102f4565b634e487b7160e01b5f52604160045260245ffd5b5f82601f8301126100bf575f5ffd5b81516001600160401b038111156100d8576100d861009c565b604051601f8201601f19908116603f011681016001600160401b03811182821017156101065761010661009c565b60405281815283820160200185101561011d575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b5f5f5f6060848603121561014b575f5ffd5b83516001600160401b03811115610160575f5ffd5b61016c868287016100b0565b602086015190945090506001600160401b03811115610189575f5ffd5b610195868287016100b0565b925050604084015160ff811681146101ab575f5ffd5b809150509250925092565b600181811c908216806101ca57607f821691505b6020821081036101e857634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561023557805f5260205f20601f840160051c810160208510156102135750805b601f840160051c820191505b81811015610232575f815560010161021f565b50505b505050565b81516001600160401b038111156102535761025361009c565b6102678161026184546101b6565b846101ee565b6020601f821160018114610299575f83156102825750848201515b5f19600385901b1c1916600184901b178455610232565b5f84815260208120601f198516915b828110156102c857878501518255602094850194600190920191016102a8565b50848210156102e557868401515f19600387901b60f8161c191681555b50505050600190811b01905550565b608051610deb61030c5f395f6101af0152610deb5ff3fe608060405234801561000f575f5ffd5b5060043610610127575f3560e01c80638da5cb5b116100a9578063c647b20e1161006e578063c647b20e146102b1578063cffd129c146102c4578063dd62ed3e146102d9578063ef89aff314610303578063fd967f4714610317575f5ffd5b80638da5cb5b1461023057806395d89b411461025b578063a8aa1b3114610263578063a9059cbb14610276578063c473413a14610289575f5ffd5b8063313ce567116100ef578063313ce567146101aa57806340c10f19146101e357806370a08231146101f6578063715018a6146102155780638187f5161461021d575f5ffd5b806306fdde031461012b57806307827a3514610149578063095ea7b31461015e57806318160ddd1461018157806323b872dd14610197575b5f5ffd5b610133610320565b6040516101409190610b94565b60405180910390f35b61015c610157366004610bc9565b6103ac565b005b61017161016c366004610c0a565b610437565b6040519015158152602001610140565b6101895f5481565b604051908152602001610140565b6101716101a5366004610c32565b6104a3565b6101d17f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff9091168152602001610140565b61015c6101f1366004610c0a565b6104c4565b610189610204366004610c6c565b60016020525f908152604090205481565b61015c610552565b61015c61022b366004610c6c565b6105c5565b600554610243906001600160a01b031681565b6040516001600160a01b039091168152602001610140565b610133610638565b600654610243906001600160a01b031681565b610171610284366004610c0a565b610645565b60065461029e90600160a01b900461ffff1681565b60405161ffff9091168152602001610140565b61015c6102bf366004610c85565b61065a565b60065461029e90600160b01b900461ffff1681565b6101896102e7366004610ca5565b600260209081525f928352604080842090915290825290205481565b60065461017190600160c01b900460ff1681565b61018961271081565b6003805461032d90610cd6565b80601f016020809104026020016040519081016040528092919081815260200182805461035990610cd6565b80156103a45780601f1061037b576101008083540402835291602001916103a4565b820191905f5260205f20905b81548152906001019060200180831161038757829003601f168201915b505050505081565b6005546001600160a01b031633146103df5760405162461bcd60e51b81526004016103d690610d0e565b60405180910390fd5b60068054821515600160c01b0260ff60c01b199091161790556040517f77902c46660e4c2b1dd4551ceb7b2e29b1819767abd8b199bdb63977752c6fe39061042c90831515815260200190565b60405180910390a150565b335f8181526002602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906104919086815260200190565b60405180910390a35060015b92915050565b5f6104af843384610758565b6104ba8484846107e9565b5060019392505050565b6005546001600160a01b031633146104ee5760405162461bcd60e51b81526004016103d690610d0e565b6001600160a01b0382166105445760405162461bcd60e51b815260206004820152601f60248201527f546f6b656e3a206d696e7420746f20746865207a65726f20616464726573730060448201526064016103d6565b61054e8282610963565b5050565b6005546001600160a01b0316331461057c5760405162461bcd60e51b81526004016103d690610d0e565b6005546040515f916001600160a01b0316907f8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0908390a3600580546001600160a01b0319169055565b6005546001600160a01b031633146105ef5760405162461bcd60e51b81526004016103d690610d0e565b600680546001600160a01b0319166001600160a01b0383169081179091556040517fc4a4ea6abc08bd7f8df3db8a1c998f19b3e0c348176f93732cd54db1a4b50136905f90a250565b6004805461032d90610cd6565b5f6106513384846107e9565b50600192915050565b6005546001600160a01b031633146106845760405162461bcd60e51b81526004016103d690610d0e565b612710821115801561069857506127108111155b6106e45760405162461bcd60e51b815260206004820152601860248201527f546178546f6b656e3a207461782061626f76652031303025000000000000000060448201526064016103d6565b6006805461ffff838116600160b01b0261ffff60b01b19918616600160a01b029190911663ffffffff60a01b199092169190911717905560408051838152602081018390527fc6d0c1d9a3b82e146ecbb98673a4562d5b614d147ef2278f77de968ab00cbe3e910160405180910390a15050565b6001600160a01b038084165f908152600260209081526040808320938616835292905220545f1981148061078c5750818110155b6107d85760405162461bcd60e51b815260206004820152601d60248201527f546f6b656e3a20696e73756666696369656e7420616c6c6f77616e636500000060448201526064016103d6565b6107e38484846109cb565b50505050565b6006546005546001600160a01b0391821691165f821580159061081e5750816001600160a01b0316866001600160a01b031614155b801561083c5750816001600160a01b0316856001600160a01b031614155b1561093657826001600160a01b0316856001600160a01b0316036108f457600654600160c01b900460ff16156108c75760405162461bcd60e51b815260206004820152602a60248201527f546178546f6b656e3a207472616e7366657220746f20746865207061697220696044820152691cc8191a5cd8589b195960b21b60648201526084016103d6565b600654612710906108e390600160b01b900461ffff1686610d59565b6108ed9190610d70565b9050610936565b826001600160a01b0316866001600160a01b031603610936576006546127109061092990600160a01b900461ffff1686610d59565b6109339190610d70565b90505b801561094757610947863083610a2d565b61095b86866109568488610d8f565b610a2d565b505050505050565b805f5f8282546109739190610da2565b90915550506001600160a01b0382165f818152600160209081526040808320805486019055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef910160405180910390a35050565b6001600160a01b038084165f908152600260209081526040808320938616835292905220545f1981146107e357610a028282610d8f565b6001600160a01b038086165f9081526002602090815260408083209388168352929052205550505050565b6001600160a01b038216610a8f5760405162461bcd60e51b815260206004820152602360248201527f546f6b656e3a207472616e7366657220746f20746865207a65726f206164647260448201526265737360e81b60648201526084016103d6565b6001600160a01b0383165f90815260016020526040902054811115610af65760405162461bcd60e51b815260206004820152601b60248201527f546f6b656e3a20696e73756666696369656e742062616c616e6365000000000060448201526064016103d6565b610b01838383610b06565b505050565b6001600160a01b0383165f9081526001602052604081208054839290610b2d908490610d8f565b90915550506001600160a01b038083165f81815260016020526040908190208054850190555190918516907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef90610b879085815260200190565b60405180910390a3505050565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f60208284031215610bd9575f5ffd5b81358015158114610be8575f5ffd5b9392505050565b80356001600160a01b0381168114610c05575f5ffd5b919050565b5f5f60408385031215610c1b575f5ffd5b610c2483610bef565b946020939093013593505050565b5f5f5f60608486031215610c44575f5ffd5b610c4d84610bef565b9250610c5b60208501610bef565b929592945050506040919091013590565b5f60208284031215610c7c575f5ffd5b610be882610bef565b5f5f60408385031215610c96575f5ffd5b50508035926020909101359150565b5f5f60408385031215610cb6575f5ffd5b610cbf83610bef565b9150610ccd60208401610bef565b90509250929050565b600181811c90821680610cea57607f821691505b602082108103610d0857634e487b7160e01b5f52602260045260245ffd5b50919050565b6020808252601e908201527f546f6b656e3a2063616c6c6572206973206e6f7420746865206f776e65720000604082015260600190565b634e487b7160e01b5f52601160045260245ffd5b808202811582820484141761049d5761049d610d45565b5f82610d8a57634e487b7160e01b5f52601260045260245ffd5b500490565b8181038181111561049d5761049d610d45565b8082018082111561049d5761049d610d4556fea26469706673582212200da7e32112a200cbcfb1f7e11909ac69361bdcea88965096420e81c2db6a48a564736f6c634300081c0033",
}

// TaxToken is an auto generated Go binding around an Ethereum contract.
type TaxToken struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TaxToken) GetABI() abi.ABI {
	return c.abi
}

// NewTaxToken creates a new instance of TaxToken.
func NewTaxToken() *TaxToken {
	parsed, err := TaxTokenMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TaxToken{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TaxToken) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(string name_, string symbol_, uint8 decimals_) returns()
func (taxToken *TaxToken) PackConstructor(name_ string, symbol_ string, decimals_ uint8) []byte {
	enc, err := taxToken.abi.Pack("", name_, symbol_, decimals_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMAXBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfd967f47.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (taxToken *TaxToken) PackMAXBPS() []byte {
	enc, err := taxToken.abi.Pack("MAX_BPS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfd967f47.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (taxToken *TaxToken) TryPackMAXBPS() ([]byte, error) {
	return taxToken.abi.Pack("MAX_BPS")
}

// UnpackMAXBPS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfd967f47.
//
// Solidity: function MAX_BPS() view returns(uint256)
func (taxToken *TaxToken) UnpackMAXBPS(data []byte) (*big.Int, error) {
	out, err := taxToken.abi.Unpack("MAX_BPS", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackAllowance is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdd62ed3e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (taxToken *TaxToken) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := taxToken.abi.Pack("allowance", arg0, arg1)
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
func (taxToken *TaxToken) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return taxToken.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (taxToken *TaxToken) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := taxToken.abi.Unpack("allowance", data)
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
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (taxToken *TaxToken) PackApprove(spender common.Address, value *big.Int) []byte {
	enc, err := taxToken.abi.Pack("approve", spender, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackApprove is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x095ea7b3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (taxToken *TaxToken) TryPackApprove(spender common.Address, value *big.Int) ([]byte, error) {
	return taxToken.abi.Pack("approve", spender, value)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (taxToken *TaxToken) UnpackApprove(data []byte) (bool, error) {
	out, err := taxToken.abi.Unpack("approve", data)
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
func (taxToken *TaxToken) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := taxToken.abi.Pack("balanceOf", arg0)
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
func (taxToken *TaxToken) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return taxToken.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (taxToken *TaxToken) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := taxToken.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBuyTaxBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc473413a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function buyTaxBps() view returns(uint16)
func (taxToken *TaxToken) PackBuyTaxBps() []byte {
	enc, err := taxToken.abi.Pack("buyTaxBps")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBuyTaxBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc473413a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function buyTaxBps() view returns(uint16)
func (taxToken *TaxToken) TryPackBuyTaxBps() ([]byte, error) {
	return taxToken.abi.Pack("buyTaxBps")
}

// UnpackBuyTaxBps is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc473413a.
//
// Solidity: function buyTaxBps() view returns(uint16)
func (taxToken *TaxToken) UnpackBuyTaxBps(data []byte) (uint16, error) {
	out, err := taxToken.abi.Unpack("buyTaxBps", data)
	if err != nil {
		return *new(uint16), err
	}
	out0 := *abi.ConvertType(out[0], new(uint16)).(*uint16)
	return out0, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (taxToken *TaxToken) PackDecimals() []byte {
	enc, err := taxToken.abi.Pack("decimals")
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
func (taxToken *TaxToken) TryPackDecimals() ([]byte, error) {
	return taxToken.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (taxToken *TaxToken) UnpackDecimals(data []byte) (uint8, error) {
	out, err := taxToken.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackHoneypot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef89aff3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function honeypot() view returns(bool)
func (taxToken *TaxToken) PackHoneypot() []byte {
	enc, err := taxToken.abi.Pack("honeypot")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackHoneypot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef89aff3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function honeypot() view returns(bool)
func (taxToken *TaxToken) TryPackHoneypot() ([]byte, error) {
	return taxToken.abi.Pack("honeypot")
}

// UnpackHoneypot is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xef89aff3.
//
// Solidity: function honeypot() view returns(bool)
func (taxToken *TaxToken) UnpackHoneypot(data []byte) (bool, error) {
	out, err := taxToken.abi.Unpack("honeypot", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint256 value) returns()
func (taxToken *TaxToken) PackMint(to common.Address, value *big.Int) []byte {
	enc, err := taxToken.abi.Pack("mint", to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x40c10f19.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint256 value) returns()
func (taxToken *TaxToken) TryPackMint(to common.Address, value *big.Int) ([]byte, error) {
	return taxToken.abi.Pack("mint", to, value)
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (taxToken *TaxToken) PackName() []byte {
	enc, err := taxToken.abi.Pack("name")
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
func (taxToken *TaxToken) TryPackName() ([]byte, error) {
	return taxToken.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (taxToken *TaxToken) UnpackName(data []byte) (string, error) {
	out, err := taxToken.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (taxToken *TaxToken) PackOwner() []byte {
	enc, err := taxToken.abi.Pack("owner")
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
func (taxToken *TaxToken) TryPackOwner() ([]byte, error) {
	return taxToken.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (taxToken *TaxToken) UnpackOwner(data []byte) (common.Address, error) {
	out, err := taxToken.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPair is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa8aa1b31.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pair() view returns(address)
func (taxToken *TaxToken) PackPair() []byte {
	enc, err := taxToken.abi.Pack("pair")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPair is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa8aa1b31.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pair() view returns(address)
func (taxToken *TaxToken) TryPackPair() ([]byte, error) {
	return taxToken.abi.Pack("pair")
}

// UnpackPair is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa8aa1b31.
//
// Solidity: function pair() view returns(address)
func (taxToken *TaxToken) UnpackPair(data []byte) (common.Address, error) {
	out, err := taxToken.abi.Unpack("pair", data)
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
func (taxToken *TaxToken) PackRenounceOwnership() []byte {
	enc, err := taxToken.abi.Pack("renounceOwnership")
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
func (taxToken *TaxToken) TryPackRenounceOwnership() ([]byte, error) {
	return taxToken.abi.Pack("renounceOwnership")
}

// PackSellTaxBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcffd129c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function sellTaxBps() view returns(uint16)
func (taxToken *TaxToken) PackSellTaxBps() []byte {
	enc, err := taxToken.abi.Pack("sellTaxBps")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSellTaxBps is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcffd129c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function sellTaxBps() view returns(uint16)
func (taxToken *TaxToken) TryPackSellTaxBps() ([]byte, error) {
	return taxToken.abi.Pack("sellTaxBps")
}

// UnpackSellTaxBps is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xcffd129c.
//
// Solidity: function sellTaxBps() view returns(uint16)
func (taxToken *TaxToken) UnpackSellTaxBps(data []byte) (uint16, error) {
	out, err := taxToken.abi.Unpack("sellTaxBps", data)
	if err != nil {
		return *new(uint16), err
	}
	out0 := *abi.ConvertType(out[0], new(uint16)).(*uint16)
	return out0, nil
}

// PackSetHoneypot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07827a35.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setHoneypot(bool enabled) returns()
func (taxToken *TaxToken) PackSetHoneypot(enabled bool) []byte {
	enc, err := taxToken.abi.Pack("setHoneypot", enabled)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetHoneypot is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07827a35.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setHoneypot(bool enabled) returns()
func (taxToken *TaxToken) TryPackSetHoneypot(enabled bool) ([]byte, error) {
	return taxToken.abi.Pack("setHoneypot", enabled)
}

// PackSetPair is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8187f516.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setPair(address pair_) returns()
func (taxToken *TaxToken) PackSetPair(pair common.Address) []byte {
	enc, err := taxToken.abi.Pack("setPair", pair)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetPair is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8187f516.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setPair(address pair_) returns()
func (taxToken *TaxToken) TryPackSetPair(pair common.Address) ([]byte, error) {
	return taxToken.abi.Pack("setPair", pair)
}

// PackSetTaxes is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc647b20e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setTaxes(uint256 buyBps, uint256 sellBps) returns()
func (taxToken *TaxToken) PackSetTaxes(buyBps *big.Int, sellBps *big.Int) []byte {
	enc, err := taxToken.abi.Pack("setTaxes", buyBps, sellBps)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetTaxes is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc647b20e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setTaxes(uint256 buyBps, uint256 sellBps) returns()
func (taxToken *TaxToken) TryPackSetTaxes(buyBps *big.Int, sellBps *big.Int) ([]byte, error) {
	return taxToken.abi.Pack("setTaxes", buyBps, sellBps)
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (taxToken *TaxToken) PackSymbol() []byte {
	enc, err := taxToken.abi.Pack("symbol")
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
func (taxToken *TaxToken) TryPackSymbol() ([]byte, error) {
	return taxToken.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (taxToken *TaxToken) UnpackSymbol(data []byte) (string, error) {
	out, err := taxToken.abi.Unpack("symbol", data)
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
func (taxToken *TaxToken) PackTotalSupply() []byte {
	enc, err := taxToken.abi.Pack("totalSupply")
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
func (taxToken *TaxToken) TryPackTotalSupply() ([]byte, error) {
	return taxToken.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (taxToken *TaxToken) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := taxToken.abi.Unpack("totalSupply", data)
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
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (taxToken *TaxToken) PackTransfer(to common.Address, value *big.Int) []byte {
	enc, err := taxToken.abi.Pack("transfer", to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xa9059cbb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (taxToken *TaxToken) TryPackTransfer(to common.Address, value *big.Int) ([]byte, error) {
	return taxToken.abi.Pack("transfer", to, value)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (taxToken *TaxToken) UnpackTransfer(data []byte) (bool, error) {
	out, err := taxToken.abi.Unpack("transfer", data)
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
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (taxToken *TaxToken) PackTransferFrom(from common.Address, to common.Address, value *big.Int) []byte {
	enc, err := taxToken.abi.Pack("transferFrom", from, to, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransferFrom is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x23b872dd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (taxToken *TaxToken) TryPackTransferFrom(from common.Address, to common.Address, value *big.Int) ([]byte, error) {
	return taxToken.abi.Pack("transferFrom", from, to, value)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (taxToken *TaxToken) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := taxToken.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// TaxTokenApproval represents a Approval event raised by the TaxToken contract.
type TaxTokenApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const TaxTokenApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (TaxTokenApproval) ContractEventName() string {
	return TaxTokenApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (taxToken *TaxToken) UnpackApprovalEvent(log *types.Log) (*TaxTokenApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenApproval)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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

// TaxTokenHoneypotSet represents a HoneypotSet event raised by the TaxToken contract.
type TaxTokenHoneypotSet struct {
	Enabled bool
	Raw     *types.Log // Blockchain specific contextual infos
}

const TaxTokenHoneypotSetEventName = "HoneypotSet"

// ContractEventName returns the user-defined event name.
func (TaxTokenHoneypotSet) ContractEventName() string {
	return TaxTokenHoneypotSetEventName
}

// UnpackHoneypotSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event HoneypotSet(bool enabled)
func (taxToken *TaxToken) UnpackHoneypotSetEvent(log *types.Log) (*TaxTokenHoneypotSet, error) {
	event := "HoneypotSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenHoneypotSet)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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

// TaxTokenOwnershipTransferred represents a OwnershipTransferred event raised by the TaxToken contract.
type TaxTokenOwnershipTransferred struct {
	PreviousOwner common.Address
	NewOwner      common.Address
	Raw           *types.Log // Blockchain specific contextual infos
}

const TaxTokenOwnershipTransferredEventName = "OwnershipTransferred"

// ContractEventName returns the user-defined event name.
func (TaxTokenOwnershipTransferred) ContractEventName() string {
	return TaxTokenOwnershipTransferredEventName
}

// UnpackOwnershipTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)
func (taxToken *TaxToken) UnpackOwnershipTransferredEvent(log *types.Log) (*TaxTokenOwnershipTransferred, error) {
	event := "OwnershipTransferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenOwnershipTransferred)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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

// TaxTokenPairSet represents a PairSet event raised by the TaxToken contract.
type TaxTokenPairSet struct {
	Pair common.Address
	Raw  *types.Log // Blockchain specific contextual infos
}

const TaxTokenPairSetEventName = "PairSet"

// ContractEventName returns the user-defined event name.
func (TaxTokenPairSet) ContractEventName() string {
	return TaxTokenPairSetEventName
}

// UnpackPairSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event PairSet(address indexed pair)
func (taxToken *TaxToken) UnpackPairSetEvent(log *types.Log) (*TaxTokenPairSet, error) {
	event := "PairSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenPairSet)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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

// TaxTokenTaxesSet represents a TaxesSet event raised by the TaxToken contract.
type TaxTokenTaxesSet struct {
	BuyTaxBps  *big.Int
	SellTaxBps *big.Int
	Raw        *types.Log // Blockchain specific contextual infos
}

const TaxTokenTaxesSetEventName = "TaxesSet"

// ContractEventName returns the user-defined event name.
func (TaxTokenTaxesSet) ContractEventName() string {
	return TaxTokenTaxesSetEventName
}

// UnpackTaxesSetEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TaxesSet(uint256 buyTaxBps, uint256 sellTaxBps)
func (taxToken *TaxToken) UnpackTaxesSetEvent(log *types.Log) (*TaxTokenTaxesSet, error) {
	event := "TaxesSet"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenTaxesSet)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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

// TaxTokenTransfer represents a Transfer event raised by the TaxToken contract.
type TaxTokenTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const TaxTokenTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (TaxTokenTransfer) ContractEventName() string {
	return TaxTokenTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (taxToken *TaxToken) UnpackTransferEvent(log *types.Log) (*TaxTokenTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != taxToken.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(TaxTokenTransfer)
	if len(log.Data) > 0 {
		if err := taxToken.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range taxToken.abi.Events[event].Inputs {
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
