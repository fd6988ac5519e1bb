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

// AuditProbeResult is an auto generated low-level Go binding around an user-defined struct.
type AuditProbeResult struct {
	Ran              bool
	Reason           string
	BuyOk            bool
	SellOk           bool
	QuoteIn          *big.Int
	ExpectedBuy      *big.Int
	ReceivedBuy      *big.Int
	SellTransferOk   bool
	SentSell         *big.Int
	PairReceivedSell *big.Int
	QuoteOut         *big.Int
	BlockNumber      *big.Int
}

// AuditProbeMetaData contains all meta data concerning the AuditProbe contract.
var AuditProbeMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"wrappedNative\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"factory\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"}],\"name\":\"audit\",\"outputs\":[{\"components\":[{\"internalType\":\"bool\",\"name\":\"ran\",\"type\":\"bool\"},{\"internalType\":\"string\",\"name\":\"reason\",\"type\":\"string\"},{\"internalType\":\"bool\",\"name\":\"buyOk\",\"type\":\"bool\"},{\"internalType\":\"bool\",\"name\":\"sellOk\",\"type\":\"bool\"},{\"internalType\":\"uint256\",\"name\":\"quoteIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"expectedBuy\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"receivedBuy\",\"type\":\"uint256\"},{\"internalType\":\"bool\",\"name\":\"sellTransferOk\",\"type\":\"bool\"},{\"internalType\":\"uint256\",\"name\":\"sentSell\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"pairReceivedSell\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"quoteOut\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"blockNumber\",\"type\":\"uint256\"}],\"internalType\":\"structAuditProbe.Result\",\"name\":\"r\",\"type\":\"tuple\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amountIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"reserveIn\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"reserveOut\",\"type\":\"uint256\"}],\"name\":\"getAmountOut\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"pure\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"pay\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"arrived\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"pair\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenIn\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"tokenOut\",\"type\":\"address\"}],\"name\":\"take\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"expected\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"received\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "e477ef11e9e047bc932c9879be01f337da",
	Bin: "0x6080604052348015600e575f5ffd5b506114618061001c5f395ff3fe608060405234801561000f575f5ffd5b506004361061004a575f3560e01c8063054d50d41461004e5780634b9873ca14610074578063963e6a0d1461009c578063b3d76188146100bc575b5f5ffd5b61006161005c366004611053565b6100cf565b6040519081526020015b60405180910390f35b610087610082366004611093565b610135565b6040805192835260208301919091520161006b565b6100af6100aa3660046110db565b6103c4565b60405161006b9190611169565b6100616100ca366004611229565b610495565b5f8315806100db575082155b806100e4575081155b156100f057505f61012e565b5f6100fd856103e561127b565b90508061010c856103e861127b565b6101169190611298565b610120848361127b565b61012a91906112ab565b9150505b9392505050565b5f8033301461018b5760405162461bcd60e51b815260206004820152601a60248201527f417564697450726f62653a2073656c662d63616c6c206f6e6c7900000000000060448201526064015b60405180910390fd5b5f5f866001600160a01b0316630902f1ac6040518163ffffffff1660e01b8152600401606060405180830381865afa1580156101c9573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906101ed91906112e5565b506001600160701b031691506001600160701b031691505f876001600160a01b0316630dfe16816040518163ffffffff1660e01b8152600401602060405180830381865afa158015610241573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906102659190611326565b6001600160a01b0316876001600160a01b03161490505f5f8261028957838561028c565b84845b915091505f8261029c8b8d61051b565b6102a69190611341565b90506102b38184846100cf565b97505f88116103045760405162461bcd60e51b815260206004820152601b60248201527f417564697450726f62653a206e6f7468696e6720746f207377617000000000006044820152606401610182565b5f61030f8a3061051b565b90508b6001600160a01b031663022c0d9f8661032b578a61032d565b5f5b87610338575f61033a565b8b5b6040516001600160e01b031960e085901b16815260048101929092526024820152306044820152608060648201525f608482015260a4015f604051808303815f87803b158015610388575f5ffd5b505af115801561039a573d5f5f3e3d5ffd5b50505050806103a98b3061051b565b6103b39190611341565b975050505050505050935093915050565b6104256040518061018001604052805f15158152602001606081526020015f151581526020015f151581526020015f81526020015f81526020015f81526020015f151581526020015f81526020015f81526020015f81526020015f81525090565b436101608201525f8061043a8888888861057f565b602086018190525191935091501561045357505061048c565b6104608387848488610802565b60208401819052511561047457505061048c565b6001835261048483898985610ad8565b602084015250505b95945050505050565b5f3330146104e55760405162461bcd60e51b815260206004820152601a60248201527f417564697450726f62653a2073656c662d63616c6c206f6e6c790000000000006044820152606401610182565b5f6104f0858561051b565b90506105066001600160a01b0386168585610e03565b80610511868661051b565b61012a9190611341565b5f5f6105278484610f17565b92509050806105785760405162461bcd60e51b815260206004820152601c60248201527f417564697450726f62653a2062616c616e63654f66206661696c6564000000006044820152606401610182565b5092915050565b6040805160048152602481019091526020810180516001600160e01b0316630dfe168160e01b1790525f908190606090829081906105be908a90610f71565b6040805160048152602481019091526020810180516001600160e01b031663d21220a760e01b17905291935091505f9081906105fb908c90610f71565b9150915083158061060a575081155b156106475750506040805180820190915260158152743737ba1030902ab734b9bbb0b8102b19103830b4b960591b602082015292506107f8915050565b826001600160a01b03168a6001600160a01b03161415801561067b5750806001600160a01b03168a6001600160a01b031614155b156106c057505060408051808201909152601881527f746f6b656e206973206e6f7420696e2074686520706169720000000000000000602082015292506107f8915050565b886001600160a01b03168a6001600160a01b03160361071957505060408051808201909152601b81527f746f6b656e206973207468652077726170706564206e61746976650000000000602082015292506107f8915050565b826001600160a01b03168a6001600160a01b031614610738578261073a565b805b9650886001600160a01b0316876001600160a01b0316146107f3576040516001600160a01b03808b166024830152881660448201525f906107a9908a9060640160408051601f198184030181529190526020810180516001600160e01b031663e6a4390560e01b179052610f71565b975090508015806107c157506001600160a01b038716155b156107f15787876040518060600160405280603b81526020016113c3603b913997509750975050505050506107f8565b505b505050505b9450945094915050565b60408051600481526024810182526020810180516001600160e01b0316630d0e30db60e41b17905290516060915f916001600160a01b0388169185916108489190611354565b5f6040518083038185875af1925050503d805f8114610882576040519150601f19603f3d011682016040523d82523d5f602084013e610887565b606091505b505090505f5f6108978830610f17565b915091508215806108a6575081155b806108b057508481105b806108b9575084155b156108fe576040518060400160405280601f81526020017f7772617070696e6720746865206e617469766520636f696e206661696c656400815250935050505061048c565b608089018590526001600160a01b03861661092c5760405180602001604052805f815250935050505061048c565b60405163167aec3160e31b81526001600160a01b03808a1660048301528716602482015260448101869052309063b3d76188906064016020604051808303815f875af192505050801561099c575060408051601f3d908101601f191682019092526109999181019061136a565b60015b6109d457604051806040016040528060118152602001701c9bdd5d19481cddd85c0819985a5b1959607a1b815250935050505061048c565b506040516325cc39e560e11b81526001600160a01b038088166004830152808a166024830152881660448201523090634b9873ca9060640160408051808303815f875af1925050508015610a45575060408051601f3d908101601f19168201909252610a4291810190611381565b60015b610a7d57604051806040016040528060118152602001701c9bdd5d19481cddd85c0819985a5b1959607a1b815250935050505061048c565b60808b018190525f039050610acc576040518060400160405280601b81526020017f726f75746520737761702072657475726e6564206e6f7468696e670000000000815250935050505061048c565b50505095945050505050565b608084015160405163167aec3160e31b81526001600160a01b038084166004830152851660248201526044810191909152606090309063b3d76188906064016020604051808303815f875af1925050508015610b51575060408051601f3d908101601f19168201909252610b4e9181019061136a565b60015b610b7e575060408051808201909152600c81526b189d5e481c995d995c9d195960a21b6020820152610dfb565b506040516325cc39e560e11b81526001600160a01b0380861660048301528084166024830152841660448201523090634b9873ca9060640160408051808303815f875af1925050508015610bef575060408051601f3d908101601f19168201909252610bec91810190611381565b60015b610c1c575060408051808201909152600c81526b189d5e481c995d995c9d195960a21b6020820152610dfb565b60c087015260a0860152600160408601525f80610c398530610f17565b91509150811580610c48575080155b15610c8c576040518060400160405280601c81526020017f74686520627579206c656674206e6f7468696e6720746f2073656c6c0000000081525092505050610dfb565b610100870181905260405163167aec3160e31b81526001600160a01b0380871660048301528716602482015260448101829052309063b3d76188906064016020604051808303815f875af1925050508015610d04575060408051601f3d908101601f19168201909252610d019181019061136a565b60015b610d2a576040518060600160405280602e81526020016113fe602e913992505050610dfb565b610120880152600160e08801526040516325cc39e560e11b81526001600160a01b0380881660048301528087166024830152851660448201523090634b9873ca9060640160408051808303815f875af1925050508015610da7575060408051601f3d908101601f19168201909252610da491810190611381565b60015b610dea576040518060400160405280601e81526020017f73656c6c2072657665727465643a207468652073776170206661696c6564000081525092505050610dfb565b610140890152505050600160608601525b949350505050565b6040516001600160a01b038381166024830152604482018390525f91829186169060640160408051601f198184030181529181526020820180516001600160e01b031663a9059cbb60e01b17905251610e5c9190611354565b5f604051808303815f865af19150503d805f8114610e95576040519150601f19603f3d011682016040523d82523d5f602084013e610e9a565b606091505b5091509150818015610ec4575080511580610ec4575080806020019051810190610ec491906113a3565b610f105760405162461bcd60e51b815260206004820152601d60248201527f536166655472616e736665723a207472616e73666572206661696c65640000006044820152606401610182565b5050505050565b6040516001600160a01b03821660248201525f908190610f6590859060440160408051601f198184030181529190526020810180516001600160e01b03166370a0823160e01b179052610fb2565b915091505b9250929050565b5f5f5f5f610f7f8686610fb2565b91509150811580610f93575060a081901c15155b15610fa5575f5f935093505050610f6a565b6001969095509350505050565b5f5f5f5f856001600160a01b031685604051610fce9190611354565b5f60405180830381855afa9150503d805f8114611006576040519150601f19603f3d011682016040523d82523d5f602084013e61100b565b606091505b509150915081158061101e575060208151105b15611030575f5f935093505050610f6a565b600181806020019051810190611046919061136a565b9350935050509250929050565b5f5f5f60608486031215611065575f5ffd5b505081359360208301359350604090920135919050565b6001600160a01b0381168114611090575f5ffd5b50565b5f5f5f606084860312156110a5575f5ffd5b83356110b08161107c565b925060208401356110c08161107c565b915060408401356110d08161107c565b809150509250925092565b5f5f5f5f5f60a086880312156110ef575f5ffd5b85356110fa8161107c565b9450602086013561110a8161107c565b9350604086013561111a8161107c565b9250606086013561112a8161107c565b949793965091946080013592915050565b5f81518084528060208401602086015e5f602082860101526020601f19601f83011685010191505092915050565b6020815261117c60208201835115159052565b5f602083015161018060408401526111986101a084018261113b565b905060408401516111ad606085018215159052565b506060840151801515608085015250608084015160a084015260a084015160c084015260c084015160e084015260e08401516111ee61010085018215159052565b506101008401516101208401526101208401516101408401526101408401516101608401526101608401516101808401528091505092915050565b5f5f5f6060848603121561123b575f5ffd5b83356112468161107c565b925060208401356112568161107c565b929592945050506040919091013590565b634e487b7160e01b5f52601160045260245ffd5b808202811582820484141761129257611292611267565b92915050565b8082018082111561129257611292611267565b5f826112c557634e487b7160e01b5f52601260045260245ffd5b500490565b80516001600160701b03811681146112e0575f5ffd5b919050565b5f5f5f606084860312156112f7575f5ffd5b611300846112ca565b925061130e602085016112ca565b9150604084015163ffffffff811681146110d0575f5ffd5b5f60208284031215611336575f5ffd5b815161012e8161107c565b8181038181111561129257611292611267565b5f82518060208501845e5f920191825250919050565b5f6020828403121561137a575f5ffd5b5051919050565b5f5f60408385031215611392575f5ffd5b505080516020909101519092909150565b5f602082840312156113b3575f5ffd5b8151801515811461012e575f5ffdfe6e6f20726f7574653a206e6f2070616972206f66207468652077726170706564206e617469766520616e64207468652071756f746520746f6b656e73656c6c2072657665727465643a20746865207472616e7366657220746f207468652070616972206661696c6564a2646970667358221220e4f871af1ccd27587e63939ccb3141d44908231776c49789d3f427bfcdf66d6c64736f6c634300081c0033",
}

// AuditProbe is an auto generated Go binding around an Ethereum contract.
type AuditProbe struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *AuditProbe) GetABI() abi.ABI {
	return c.abi
}

// NewAuditProbe creates a new instance of AuditProbe.
func NewAuditProbe() *AuditProbe {
	parsed, err := AuditProbeMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &AuditProbe{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *AuditProbe) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAudit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x963e6a0d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function audit(address pair, address token, address wrappedNative, address factory, uint256 amountIn) returns((bool,string,bool,bool,uint256,uint256,uint256,bool,uint256,uint256,uint256,uint256) r)
func (auditProbe *AuditProbe) PackAudit(pair common.Address, token common.Address, wrappedNative common.Address, factory common.Address, amountIn *big.Int) []byte {
	enc, err := auditProbe.abi.Pack("audit", pair, token, wrappedNative, factory, amountIn)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAudit is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x963e6a0d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function audit(address pair, address token, address wrappedNative, address factory, uint256 amountIn) returns((bool,string,bool,bool,uint256,uint256,uint256,bool,uint256,uint256,uint256,uint256) r)
func (auditProbe *AuditProbe) TryPackAudit(pair common.Address, token common.Address, wrappedNative common.Address, factory common.Address, amountIn *big.Int) ([]byte, error) {
	return auditProbe.abi.Pack("audit", pair, token, wrappedNative, factory, amountIn)
}

// UnpackAudit is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x963e6a0d.
//
// Solidity: function audit(address pair, address token, address wrappedNative, address factory, uint256 amountIn) returns((bool,string,bool,bool,uint256,uint256,uint256,bool,uint256,uint256,uint256,uint256) r)
func (auditProbe *AuditProbe) UnpackAudit(data []byte) (AuditProbeResult, error) {
	out, err := auditProbe.abi.Unpack("audit", data)
	if err != nil {
		return *new(AuditProbeResult), err
	}
	out0 := *abi.ConvertType(out[0], new(AuditProbeResult)).(*AuditProbeResult)
	return out0, nil
}

// PackGetAmountOut is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x054d50d4.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) pure returns(uint256)
func (auditProbe *AuditProbe) PackGetAmountOut(amountIn *big.Int, reserveIn *big.Int, reserveOut *big.Int) []byte {
	enc, err := auditProbe.abi.Pack("getAmountOut", amountIn, reserveIn, reserveOut)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetAmountOut is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x054d50d4.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) pure returns(uint256)
func (auditProbe *AuditProbe) TryPackGetAmountOut(amountIn *big.Int, reserveIn *big.Int, reserveOut *big.Int) ([]byte, error) {
	return auditProbe.abi.Pack("getAmountOut", amountIn, reserveIn, reserveOut)
}

// UnpackGetAmountOut is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x054d50d4.
//
// Solidity: function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) pure returns(uint256)
func (auditProbe *AuditProbe) UnpackGetAmountOut(data []byte) (*big.Int, error) {
	out, err := auditProbe.abi.Unpack("getAmountOut", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb3d76188.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pay(address tokenIn, address pair, uint256 value) returns(uint256 arrived)
func (auditProbe *AuditProbe) PackPay(tokenIn common.Address, pair common.Address, value *big.Int) []byte {
	enc, err := auditProbe.abi.Pack("pay", tokenIn, pair, value)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb3d76188.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pay(address tokenIn, address pair, uint256 value) returns(uint256 arrived)
func (auditProbe *AuditProbe) TryPackPay(tokenIn common.Address, pair common.Address, value *big.Int) ([]byte, error) {
	return auditProbe.abi.Pack("pay", tokenIn, pair, value)
}

// UnpackPay is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb3d76188.
//
// Solidity: function pay(address tokenIn, address pair, uint256 value) returns(uint256 arrived)
func (auditProbe *AuditProbe) UnpackPay(data []byte) (*big.Int, error) {
	out, err := auditProbe.abi.Unpack("pay", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b9873ca.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function take(address pair, address tokenIn, address tokenOut) returns(uint256 expected, uint256 received)
func (auditProbe *AuditProbe) PackTake(pair common.Address, tokenIn common.Address, tokenOut common.Address) []byte {
	enc, err := auditProbe.abi.Pack("take", pair, tokenIn, tokenOut)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTake is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x4b9873ca.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function take(address pair, address tokenIn, address tokenOut) returns(uint256 expected, uint256 received)
func (auditProbe *AuditProbe) TryPackTake(pair common.Address, tokenIn common.Address, tokenOut common.Address) ([]byte, error) {
	return auditProbe.abi.Pack("take", pair, tokenIn, tokenOut)
}

// TakeOutput serves as a container for the return parameters of contract
// method Take.
type TakeOutput struct {
	Expected *big.Int
	Received *big.Int
}

// UnpackTake is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x4b9873ca.
//
// Solidity: function take(address pair, address tokenIn, address tokenOut) returns(uint256 expected, uint256 received)
func (auditProbe *AuditProbe) UnpackTake(data []byte) (TakeOutput, error) {
	out, err := auditProbe.abi.Unpack("take", data)
	outstruct := new(TakeOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Expected = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Received = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}
