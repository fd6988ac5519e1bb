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

// UniswapV2PairMetaData contains all meta data concerning the UniswapV2Pair contract.
var UniswapV2PairMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Approval\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount0\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount1\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Burn\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount0\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount1\",\"type\":\"uint256\"}],\"name\":\"Mint\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"sender\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount0In\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount1In\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount0Out\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount1Out\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Swap\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint112\",\"name\":\"reserve0\",\"type\":\"uint112\"},{\"indexed\":false,\"internalType\":\"uint112\",\"name\":\"reserve1\",\"type\":\"uint112\"}],\"name\":\"Sync\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"Transfer\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MINIMUM_LIQUIDITY\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"allowance\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"spender\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"approve\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"name\":\"balanceOf\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"burn\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"amount0\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount1\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"factory\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getReserves\",\"outputs\":[{\"internalType\":\"uint112\",\"name\":\"_reserve0\",\"type\":\"uint112\"},{\"internalType\":\"uint112\",\"name\":\"_reserve1\",\"type\":\"uint112\"},{\"internalType\":\"uint32\",\"name\":\"_blockTimestampLast\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_token0\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"_token1\",\"type\":\"address\"}],\"name\":\"initialize\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"mint\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"liquidity\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"name\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"price0CumulativeLast\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"price1CumulativeLast\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"skim\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"amount0Out\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount1Out\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"data\",\"type\":\"bytes\"}],\"name\":\"swap\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"symbol\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"sync\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token0\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"token1\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalSupply\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transfer\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"value\",\"type\":\"uint256\"}],\"name\":\"transferFrom\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "d3c4d14169a2a4581a024b9d1f2eff968e",
	Bin: "0x60a060405260016008553480156013575f5ffd5b5033608052608051611a8e6100375f395f818161033401526109740152611a8e5ff3fe608060405234801561000f575f5ffd5b506004361061013d575f3560e01c80636a627842116100b4578063ba9a7a5611610079578063ba9a7a5614610313578063bc25cf771461031c578063c45a01551461032f578063d21220a714610356578063dd62ed3e14610369578063fff6cae914610393575f5ffd5b80636a6278421461028157806370a082311461029457806389afcb44146102b357806395d89b41146102db578063a9059cbb14610300575f5ffd5b806318160ddd1161010557806318160ddd1461021957806323b872dd1461022f578063313ce56714610242578063485cc9551461025c5780635909c0d51461026f5780635a3d549314610278575f5ffd5b8063022c0d9f1461014157806306fdde03146101565780630902f1ac14610197578063095ea7b3146101cb5780630dfe1681146101ee575b5f5ffd5b61015461014f3660046117a3565b61039b565b005b6101816040518060400160405280600c81526020016b04465766e6574205632204c560a41b81525081565b60405161018e9190611831565b60405180910390f35b61019f6108b2565b604080516001600160701b03948516815293909216602084015263ffffffff169082015260600161018e565b6101de6101d9366004611866565b6108dc565b604051901515815260200161018e565b600354610201906001600160a01b031681565b6040516001600160a01b03909116815260200161018e565b6102215f5481565b60405190815260200161018e565b6101de61023d36600461188e565b610948565b61024a601281565b60405160ff909116815260200161018e565b61015461026a3660046118c8565b610969565b61022160065481565b61022160075481565b61022161028f3660046118f9565b610a06565b6102216102a23660046118f9565b60016020525f908152604090205481565b6102c66102c13660046118f9565b610c90565b6040805192835260208301919091520161018e565b6101816040518060400160405280600681526020016504456322d4c560d41b81525081565b6101de61030e366004611866565b610fc3565b6102216103e881565b61015461032a3660046118f9565b610fd8565b6102017f000000000000000000000000000000000000000000000000000000000000000081565b600454610201906001600160a01b031681565b6102216103773660046118c8565b600260209081525f928352604080842090915290825290205481565b61015461114a565b6008546001146103c65760405162461bcd60e51b81526004016103bd90611912565b60405180910390fd5b5f600855841515806103d757505f84115b6104315760405162461bcd60e51b815260206004820152602560248201527f556e697377617056323a20494e53554646494349454e545f4f55545055545f416044820152641353d5539560da1b60648201526084016103bd565b5f5f61043b6108b2565b5091509150816001600160701b0316871080156104605750806001600160701b031686105b6104b65760405162461bcd60e51b815260206004820152602160248201527f556e697377617056323a20494e53554646494349454e545f4c495155494449546044820152605960f81b60648201526084016103bd565b6003546004545f9182916001600160a01b039182169190811690891682148015906104f35750806001600160a01b0316896001600160a01b031614155b6105375760405162461bcd60e51b8152602060048201526015602482015274556e697377617056323a20494e56414c49445f544f60581b60448201526064016103bd565b8a15610551576105516001600160a01b0383168a8d61126a565b891561056b5761056b6001600160a01b0382168a8c61126a565b86156105d3576040516304347a1760e21b81526001600160a01b038a16906310d1e85c906105a59033908f908f908e908e9060040161193d565b5f604051808303815f87803b1580156105bc575f5ffd5b505af11580156105ce573d5f5f3e3d5ffd5b505050505b6040516370a0823160e01b81523060048201526001600160a01b038316906370a0823190602401602060405180830381865afa158015610615573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106399190611988565b6040516370a0823160e01b81523060048201529094506001600160a01b038216906370a0823190602401602060405180830381865afa15801561067e573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106a29190611988565b925050505f89856001600160701b03166106bc91906119b3565b83116106c8575f6106e5565b6106db8a6001600160701b0387166119b3565b6106e590846119b3565b90505f6106fb8a6001600160701b0387166119b3565b8311610707575f610724565b61071a8a6001600160701b0387166119b3565b61072490846119b3565b90505f82118061073357505f81115b61078b5760405162461bcd60e51b8152602060048201526024808201527f556e697377617056323a20494e53554646494349454e545f494e5055545f414d60448201526313d5539560e21b60648201526084016103bd565b5f6107978360036119c6565b6107a3866103e86119c6565b6107ad91906119b3565b90505f6107bb8360036119c6565b6107c7866103e86119c6565b6107d191906119b3565b90506107e96001600160701b03808916908a166119c6565b6107f690620f42406119c6565b61080082846119c6565b101561083d5760405162461bcd60e51b815260206004820152600c60248201526b556e697377617056323a204b60a01b60448201526064016103bd565b505061084b8484888861137e565b60408051838152602081018390529081018c9052606081018b90526001600160a01b038a169033907fd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d8229060800160405180910390a350506001600855505050505050505050565b6005546001600160701b0380821692600160701b830490911691600160e01b900463ffffffff1690565b335f8181526002602090815260408083206001600160a01b038716808552925280832085905551919290917f8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925906109369086815260200190565b60405180910390a35060015b92915050565b5f61095484338461153f565b61095f8484846115a2565b5060019392505050565b336001600160a01b037f000000000000000000000000000000000000000000000000000000000000000016146109d85760405162461bcd60e51b81526020600482015260146024820152732ab734b9bbb0b82b191d102327a92124a22222a760611b60448201526064016103bd565b600380546001600160a01b039384166001600160a01b03199182161790915560048054929093169116179055565b5f600854600114610a295760405162461bcd60e51b81526004016103bd90611912565b5f600881905580610a386108b2565b506003546040516370a0823160e01b81523060048201529294509092505f916001600160a01b03909116906370a0823190602401602060405180830381865afa158015610a87573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610aab9190611988565b600480546040516370a0823160e01b815230928101929092529192505f916001600160a01b0316906370a0823190602401602060405180830381865afa158015610af7573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610b1b9190611988565b90505f610b316001600160701b038616846119b3565b90505f610b476001600160701b038616846119b3565b5f8054919250819003610b86576103e8610b69610b6484866119c6565b611630565b610b7391906119b3565b9750610b815f6103e861169e565b610bcd565b610bca6001600160701b038816610b9d83866119c6565b610ba791906119f1565b6001600160701b038816610bbb84866119c6565b610bc591906119f1565b611707565b97505b5f8811610c2d5760405162461bcd60e51b815260206004820152602860248201527f556e697377617056323a20494e53554646494349454e545f4c495155494449546044820152671657d3525395115160c21b60648201526084016103bd565b610c37898961169e565b610c438585898961137e565b604080518481526020810184905233917f4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f910160405180910390a250506001600855509395945050505050565b5f5f600854600114610cb45760405162461bcd60e51b81526004016103bd90611912565b5f600881905580610cc36108b2565b50600354600480546040516370a0823160e01b815230928101929092529395509193506001600160a01b039081169216905f9083906370a0823190602401602060405180830381865afa158015610d1c573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610d409190611988565b6040516370a0823160e01b81523060048201529091505f906001600160a01b038416906370a0823190602401602060405180830381865afa158015610d87573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610dab9190611988565b305f9081526001602052604081205490549192509080610dcb85846119c6565b610dd591906119f1565b995080610de284846119c6565b610dec91906119f1565b98505f8a118015610dfc57505f89115b610e595760405162461bcd60e51b815260206004820152602860248201527f556e697377617056323a20494e53554646494349454e545f4c495155494449546044820152671657d0955493915160c21b60648201526084016103bd565b610e63308361171e565b610e776001600160a01b0387168c8c61126a565b610e8b6001600160a01b0386168c8b61126a565b6040516370a0823160e01b81523060048201526001600160a01b038716906370a0823190602401602060405180830381865afa158015610ecd573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610ef19190611988565b6040516370a0823160e01b81523060048201529094506001600160a01b038616906370a0823190602401602060405180830381865afa158015610f36573d5f5f3e3d5ffd5b505050506040513d601f19601f82011682018060405250810190610f5a9190611988565b9250610f6884848a8a61137e565b604080518b8152602081018b90526001600160a01b038d169133917fdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496910160405180910390a350505050505050506001600881905550915091565b5f610fcf3384846115a2565b50600192915050565b600854600114610ffa5760405162461bcd60e51b81526004016103bd90611912565b5f600855600354600480546005546040516370a0823160e01b815230938101939093526001600160a01b0393841693909116916110a49185916001600160701b039091169085906370a0823190602401602060405180830381865afa158015611065573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906110899190611988565b61109391906119b3565b6001600160a01b038516919061126a565b6005546040516370a0823160e01b8152306004820152611140918591600160701b9091046001600160701b0316906001600160a01b038516906370a0823190602401602060405180830381865afa158015611101573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906111259190611988565b61112f91906119b3565b6001600160a01b038416919061126a565b5050600160085550565b60085460011461116c5760405162461bcd60e51b81526004016103bd90611912565b5f6008556003546040516370a0823160e01b8152306004820152611263916001600160a01b0316906370a0823190602401602060405180830381865afa1580156111b8573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906111dc9190611988565b600480546040516370a0823160e01b815230928101929092526001600160a01b0316906370a0823190602401602060405180830381865afa158015611223573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906112479190611988565b6005546001600160701b0380821691600160701b90041661137e565b6001600855565b6040516001600160a01b038381166024830152604482018390525f91829186169060640160408051601f198184030181529181526020820180516001600160e01b031663a9059cbb60e01b179052516112c39190611a10565b5f604051808303815f865af19150503d805f81146112fc576040519150601f19603f3d011682016040523d82523d5f602084013e611301565b606091505b509150915081801561132b57508051158061132b57508080602001905181019061132b9190611a26565b6113775760405162461bcd60e51b815260206004820152601d60248201527f536166655472616e736665723a207472616e73666572206661696c656400000060448201526064016103bd565b5050505050565b6001600160701b03841180159061139c57506001600160701b038311155b6113de5760405162461bcd60e51b8152602060048201526013602482015272556e697377617056323a204f564552464c4f5760681b60448201526064016103bd565b600554429063ffffffff600160e01b909104811682039081161580159061140d57506001600160701b03841615155b801561142157506001600160701b03831615155b156114a7578063ffffffff16846001600160701b03166070856001600160701b0316901b81611452576114526119dd565b60068054929091049290920201905563ffffffff81166001600160701b0384166dffffffffffffffffffffffffffff60701b607087901b1681611497576114976119dd565b6007805492909104929092020190555b506005805463ffffffff8316600160e01b026001600160e01b036001600160701b03888116600160701b9081026001600160e01b03199095168b83161794909417918216831794859055604080519382169282169290921783529290930490911660208201527f1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1910160405180910390a15050505050565b6001600160a01b038084165f908152600260209081526040808320938616835292905220545f19811461159c5761157682826119b3565b6001600160a01b038086165f908152600260209081526040808320938816835292905220555b50505050565b6001600160a01b0383165f90815260016020526040812080548392906115c99084906119b3565b90915550506001600160a01b038083165f81815260016020526040908190208054850190555190918516907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef906116239085815260200190565b60405180910390a3505050565b5f600382111561168f5750805f6116486002836119f1565b611653906001611a45565b90505b818110156116895790508060028161166e81866119f1565b6116789190611a45565b61168291906119f1565b9050611656565b50919050565b8115611699575060015b919050565b805f5f8282546116ae9190611a45565b90915550506001600160a01b0382165f818152600160209081526040808320805486019055518481527fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef91015b60405180910390a35050565b5f8183106117155781611717565b825b9392505050565b6001600160a01b0382165f90815260016020526040812080548392906117459084906119b3565b90915550505f805482900381556040518281526001600160a01b038416907fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef906020016116fb565b80356001600160a01b0381168114611699575f5ffd5b5f5f5f5f5f608086880312156117b7575f5ffd5b85359450602086013593506117ce6040870161178d565b9250606086013567ffffffffffffffff8111156117e9575f5ffd5b8601601f810188136117f9575f5ffd5b803567ffffffffffffffff81111561180f575f5ffd5b886020828401011115611820575f5ffd5b959894975092955050506020019190565b602081525f82518060208401528060208501604085015e5f604082850101526040601f19601f83011684010191505092915050565b5f5f60408385031215611877575f5ffd5b6118808361178d565b946020939093013593505050565b5f5f5f606084860312156118a0575f5ffd5b6118a98461178d565b92506118b76020850161178d565b929592945050506040919091013590565b5f5f604083850312156118d9575f5ffd5b6118e28361178d565b91506118f06020840161178d565b90509250929050565b5f60208284031215611909575f5ffd5b6117178261178d565b602080825260119082015270155b9a5cddd85c158c8e881313d0d2d151607a1b604082015260600190565b60018060a01b038616815284602082015283604082015260806060820152816080820152818360a08301375f81830160a090810191909152601f909201601f19160101949350505050565b5f60208284031215611998575f5ffd5b5051919050565b634e487b7160e01b5f52601160045260245ffd5b818103818111156109425761094261199f565b80820281158282048414176109425761094261199f565b634e487b7160e01b5f52601260045260245ffd5b5f82611a0b57634e487b7160e01b5f52601260045260245ffd5b500490565b5f82518060208501845e5f920191825250919050565b5f60208284031215611a36575f5ffd5b81518015158114611717575f5ffd5b808201808211156109425761094261199f56fea2646970667358221220074e7ae3f00f3fe7869022f67064159afb8eb90ac14d1a4fc1eb45bbbc3b12b664736f6c634300081c0033",
}

// UniswapV2Pair is an auto generated Go binding around an Ethereum contract.
type UniswapV2Pair struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *UniswapV2Pair) GetABI() abi.ABI {
	return c.abi
}

// NewUniswapV2Pair creates a new instance of UniswapV2Pair.
func NewUniswapV2Pair() *UniswapV2Pair {
	parsed, err := UniswapV2PairMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &UniswapV2Pair{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *UniswapV2Pair) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackMINIMUMLIQUIDITY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba9a7a56.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MINIMUM_LIQUIDITY() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) PackMINIMUMLIQUIDITY() []byte {
	enc, err := uniswapV2Pair.abi.Pack("MINIMUM_LIQUIDITY")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMINIMUMLIQUIDITY is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xba9a7a56.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MINIMUM_LIQUIDITY() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) TryPackMINIMUMLIQUIDITY() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("MINIMUM_LIQUIDITY")
}

// UnpackMINIMUMLIQUIDITY is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xba9a7a56.
//
// Solidity: function MINIMUM_LIQUIDITY() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackMINIMUMLIQUIDITY(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("MINIMUM_LIQUIDITY", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackAllowance(arg0 common.Address, arg1 common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("allowance", arg0, arg1)
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
func (uniswapV2Pair *UniswapV2Pair) TryPackAllowance(arg0 common.Address, arg1 common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("allowance", arg0, arg1)
}

// UnpackAllowance is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdd62ed3e.
//
// Solidity: function allowance(address , address ) view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackAllowance(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("allowance", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackApprove(spender common.Address, value *big.Int) []byte {
	enc, err := uniswapV2Pair.abi.Pack("approve", spender, value)
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
func (uniswapV2Pair *UniswapV2Pair) TryPackApprove(spender common.Address, value *big.Int) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("approve", spender, value)
}

// UnpackApprove is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x095ea7b3.
//
// Solidity: function approve(address spender, uint256 value) returns(bool)
func (uniswapV2Pair *UniswapV2Pair) UnpackApprove(data []byte) (bool, error) {
	out, err := uniswapV2Pair.abi.Unpack("approve", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackBalanceOf(arg0 common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("balanceOf", arg0)
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
func (uniswapV2Pair *UniswapV2Pair) TryPackBalanceOf(arg0 common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("balanceOf", arg0)
}

// UnpackBalanceOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x70a08231.
//
// Solidity: function balanceOf(address ) view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackBalanceOf(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("balanceOf", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89afcb44.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function burn(address to) returns(uint256 amount0, uint256 amount1)
func (uniswapV2Pair *UniswapV2Pair) PackBurn(to common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("burn", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackBurn is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89afcb44.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function burn(address to) returns(uint256 amount0, uint256 amount1)
func (uniswapV2Pair *UniswapV2Pair) TryPackBurn(to common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("burn", to)
}

// BurnOutput serves as a container for the return parameters of contract
// method Burn.
type BurnOutput struct {
	Amount0 *big.Int
	Amount1 *big.Int
}

// UnpackBurn is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x89afcb44.
//
// Solidity: function burn(address to) returns(uint256 amount0, uint256 amount1)
func (uniswapV2Pair *UniswapV2Pair) UnpackBurn(data []byte) (BurnOutput, error) {
	out, err := uniswapV2Pair.abi.Unpack("burn", data)
	outstruct := new(BurnOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Amount0 = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Amount1 = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (uniswapV2Pair *UniswapV2Pair) PackDecimals() []byte {
	enc, err := uniswapV2Pair.abi.Pack("decimals")
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
func (uniswapV2Pair *UniswapV2Pair) TryPackDecimals() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (uniswapV2Pair *UniswapV2Pair) UnpackDecimals(data []byte) (uint8, error) {
	out, err := uniswapV2Pair.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function factory() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) PackFactory() []byte {
	enc, err := uniswapV2Pair.abi.Pack("factory")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function factory() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) TryPackFactory() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("factory")
}

// UnpackFactory is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc45a0155.
//
// Solidity: function factory() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) UnpackFactory(data []byte) (common.Address, error) {
	out, err := uniswapV2Pair.abi.Unpack("factory", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetReserves is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0902f1ac.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getReserves() view returns(uint112 _reserve0, uint112 _reserve1, uint32 _blockTimestampLast)
func (uniswapV2Pair *UniswapV2Pair) PackGetReserves() []byte {
	enc, err := uniswapV2Pair.abi.Pack("getReserves")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetReserves is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0902f1ac.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getReserves() view returns(uint112 _reserve0, uint112 _reserve1, uint32 _blockTimestampLast)
func (uniswapV2Pair *UniswapV2Pair) TryPackGetReserves() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("getReserves")
}

// GetReservesOutput serves as a container for the return parameters of contract
// method GetReserves.
type GetReservesOutput struct {
	Reserve0           *big.Int
	Reserve1           *big.Int
	BlockTimestampLast uint32
}

// UnpackGetReserves is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0902f1ac.
//
// Solidity: function getReserves() view returns(uint112 _reserve0, uint112 _reserve1, uint32 _blockTimestampLast)
func (uniswapV2Pair *UniswapV2Pair) UnpackGetReserves(data []byte) (GetReservesOutput, error) {
	out, err := uniswapV2Pair.abi.Unpack("getReserves", data)
	outstruct := new(GetReservesOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.Reserve0 = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Reserve1 = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.BlockTimestampLast = *abi.ConvertType(out[2], new(uint32)).(*uint32)
	return *outstruct, nil
}

// PackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x485cc955.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function initialize(address _token0, address _token1) returns()
func (uniswapV2Pair *UniswapV2Pair) PackInitialize(token0 common.Address, token1 common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("initialize", token0, token1)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackInitialize is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x485cc955.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function initialize(address _token0, address _token1) returns()
func (uniswapV2Pair *UniswapV2Pair) TryPackInitialize(token0 common.Address, token1 common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("initialize", token0, token1)
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6a627842.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to) returns(uint256 liquidity)
func (uniswapV2Pair *UniswapV2Pair) PackMint(to common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("mint", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6a627842.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to) returns(uint256 liquidity)
func (uniswapV2Pair *UniswapV2Pair) TryPackMint(to common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("mint", to)
}

// UnpackMint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6a627842.
//
// Solidity: function mint(address to) returns(uint256 liquidity)
func (uniswapV2Pair *UniswapV2Pair) UnpackMint(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("mint", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackName is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x06fdde03.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function name() view returns(string)
func (uniswapV2Pair *UniswapV2Pair) PackName() []byte {
	enc, err := uniswapV2Pair.abi.Pack("name")
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
func (uniswapV2Pair *UniswapV2Pair) TryPackName() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("name")
}

// UnpackName is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x06fdde03.
//
// Solidity: function name() view returns(string)
func (uniswapV2Pair *UniswapV2Pair) UnpackName(data []byte) (string, error) {
	out, err := uniswapV2Pair.abi.Unpack("name", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackPrice0CumulativeLast is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5909c0d5.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function price0CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) PackPrice0CumulativeLast() []byte {
	enc, err := uniswapV2Pair.abi.Pack("price0CumulativeLast")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPrice0CumulativeLast is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5909c0d5.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function price0CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) TryPackPrice0CumulativeLast() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("price0CumulativeLast")
}

// UnpackPrice0CumulativeLast is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5909c0d5.
//
// Solidity: function price0CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackPrice0CumulativeLast(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("price0CumulativeLast", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackPrice1CumulativeLast is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a3d5493.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function price1CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) PackPrice1CumulativeLast() []byte {
	enc, err := uniswapV2Pair.abi.Pack("price1CumulativeLast")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPrice1CumulativeLast is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5a3d5493.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function price1CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) TryPackPrice1CumulativeLast() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("price1CumulativeLast")
}

// UnpackPrice1CumulativeLast is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5a3d5493.
//
// Solidity: function price1CumulativeLast() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackPrice1CumulativeLast(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("price1CumulativeLast", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackSkim is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc25cf77.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function skim(address to) returns()
func (uniswapV2Pair *UniswapV2Pair) PackSkim(to common.Address) []byte {
	enc, err := uniswapV2Pair.abi.Pack("skim", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSkim is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbc25cf77.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function skim(address to) returns()
func (uniswapV2Pair *UniswapV2Pair) TryPackSkim(to common.Address) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("skim", to)
}

// PackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x022c0d9f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data) returns()
func (uniswapV2Pair *UniswapV2Pair) PackSwap(amount0Out *big.Int, amount1Out *big.Int, to common.Address, data []byte) []byte {
	enc, err := uniswapV2Pair.abi.Pack("swap", amount0Out, amount1Out, to, data)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSwap is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x022c0d9f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data) returns()
func (uniswapV2Pair *UniswapV2Pair) TryPackSwap(amount0Out *big.Int, amount1Out *big.Int, to common.Address, data []byte) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("swap", amount0Out, amount1Out, to, data)
}

// PackSymbol is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x95d89b41.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function symbol() view returns(string)
func (uniswapV2Pair *UniswapV2Pair) PackSymbol() []byte {
	enc, err := uniswapV2Pair.abi.Pack("symbol")
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
func (uniswapV2Pair *UniswapV2Pair) TryPackSymbol() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("symbol")
}

// UnpackSymbol is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x95d89b41.
//
// Solidity: function symbol() view returns(string)
func (uniswapV2Pair *UniswapV2Pair) UnpackSymbol(data []byte) (string, error) {
	out, err := uniswapV2Pair.abi.Unpack("symbol", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackSync is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfff6cae9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function sync() returns()
func (uniswapV2Pair *UniswapV2Pair) PackSync() []byte {
	enc, err := uniswapV2Pair.abi.Pack("sync")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSync is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfff6cae9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function sync() returns()
func (uniswapV2Pair *UniswapV2Pair) TryPackSync() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("sync")
}

// PackToken0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0dfe1681.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function token0() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) PackToken0() []byte {
	enc, err := uniswapV2Pair.abi.Pack("token0")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackToken0 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0dfe1681.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function token0() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) TryPackToken0() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("token0")
}

// UnpackToken0 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x0dfe1681.
//
// Solidity: function token0() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) UnpackToken0(data []byte) (common.Address, error) {
	out, err := uniswapV2Pair.abi.Unpack("token0", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackToken1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd21220a7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function token1() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) PackToken1() []byte {
	enc, err := uniswapV2Pair.abi.Pack("token1")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackToken1 is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd21220a7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function token1() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) TryPackToken1() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("token1")
}

// UnpackToken1 is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd21220a7.
//
// Solidity: function token1() view returns(address)
func (uniswapV2Pair *UniswapV2Pair) UnpackToken1(data []byte) (common.Address, error) {
	out, err := uniswapV2Pair.abi.Unpack("token1", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackTotalSupply() []byte {
	enc, err := uniswapV2Pair.abi.Pack("totalSupply")
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
func (uniswapV2Pair *UniswapV2Pair) TryPackTotalSupply() ([]byte, error) {
	return uniswapV2Pair.abi.Pack("totalSupply")
}

// UnpackTotalSupply is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x18160ddd.
//
// Solidity: function totalSupply() view returns(uint256)
func (uniswapV2Pair *UniswapV2Pair) UnpackTotalSupply(data []byte) (*big.Int, error) {
	out, err := uniswapV2Pair.abi.Unpack("totalSupply", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackTransfer(to common.Address, value *big.Int) []byte {
	enc, err := uniswapV2Pair.abi.Pack("transfer", to, value)
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
func (uniswapV2Pair *UniswapV2Pair) TryPackTransfer(to common.Address, value *big.Int) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("transfer", to, value)
}

// UnpackTransfer is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xa9059cbb.
//
// Solidity: function transfer(address to, uint256 value) returns(bool)
func (uniswapV2Pair *UniswapV2Pair) UnpackTransfer(data []byte) (bool, error) {
	out, err := uniswapV2Pair.abi.Unpack("transfer", data)
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
func (uniswapV2Pair *UniswapV2Pair) PackTransferFrom(from common.Address, to common.Address, value *big.Int) []byte {
	enc, err := uniswapV2Pair.abi.Pack("transferFrom", from, to, value)
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
func (uniswapV2Pair *UniswapV2Pair) TryPackTransferFrom(from common.Address, to common.Address, value *big.Int) ([]byte, error) {
	return uniswapV2Pair.abi.Pack("transferFrom", from, to, value)
}

// UnpackTransferFrom is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x23b872dd.
//
// Solidity: function transferFrom(address from, address to, uint256 value) returns(bool)
func (uniswapV2Pair *UniswapV2Pair) UnpackTransferFrom(data []byte) (bool, error) {
	out, err := uniswapV2Pair.abi.Unpack("transferFrom", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// UniswapV2PairApproval represents a Approval event raised by the UniswapV2Pair contract.
type UniswapV2PairApproval struct {
	Owner   common.Address
	Spender common.Address
	Value   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairApprovalEventName = "Approval"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairApproval) ContractEventName() string {
	return UniswapV2PairApprovalEventName
}

// UnpackApprovalEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Approval(address indexed owner, address indexed spender, uint256 value)
func (uniswapV2Pair *UniswapV2Pair) UnpackApprovalEvent(log *types.Log) (*UniswapV2PairApproval, error) {
	event := "Approval"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairApproval)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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

// UniswapV2PairBurn represents a Burn event raised by the UniswapV2Pair contract.
type UniswapV2PairBurn struct {
	Sender  common.Address
	Amount0 *big.Int
	Amount1 *big.Int
	To      common.Address
	Raw     *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairBurnEventName = "Burn"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairBurn) ContractEventName() string {
	return UniswapV2PairBurnEventName
}

// UnpackBurnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)
func (uniswapV2Pair *UniswapV2Pair) UnpackBurnEvent(log *types.Log) (*UniswapV2PairBurn, error) {
	event := "Burn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairBurn)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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

// UniswapV2PairMint represents a Mint event raised by the UniswapV2Pair contract.
type UniswapV2PairMint struct {
	Sender  common.Address
	Amount0 *big.Int
	Amount1 *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairMintEventName = "Mint"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairMint) ContractEventName() string {
	return UniswapV2PairMintEventName
}

// UnpackMintEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Mint(address indexed sender, uint256 amount0, uint256 amount1)
func (uniswapV2Pair *UniswapV2Pair) UnpackMintEvent(log *types.Log) (*UniswapV2PairMint, error) {
	event := "Mint"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairMint)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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

// UniswapV2PairSwap represents a Swap event raised by the UniswapV2Pair contract.
type UniswapV2PairSwap struct {
	Sender     common.Address
	Amount0In  *big.Int
	Amount1In  *big.Int
	Amount0Out *big.Int
	Amount1Out *big.Int
	To         common.Address
	Raw        *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairSwapEventName = "Swap"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairSwap) ContractEventName() string {
	return UniswapV2PairSwapEventName
}

// UnpackSwapEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)
func (uniswapV2Pair *UniswapV2Pair) UnpackSwapEvent(log *types.Log) (*UniswapV2PairSwap, error) {
	event := "Swap"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairSwap)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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

// UniswapV2PairSync represents a Sync event raised by the UniswapV2Pair contract.
type UniswapV2PairSync struct {
	Reserve0 *big.Int
	Reserve1 *big.Int
	Raw      *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairSyncEventName = "Sync"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairSync) ContractEventName() string {
	return UniswapV2PairSyncEventName
}

// UnpackSyncEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Sync(uint112 reserve0, uint112 reserve1)
func (uniswapV2Pair *UniswapV2Pair) UnpackSyncEvent(log *types.Log) (*UniswapV2PairSync, error) {
	event := "Sync"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairSync)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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

// UniswapV2PairTransfer represents a Transfer event raised by the UniswapV2Pair contract.
type UniswapV2PairTransfer struct {
	From  common.Address
	To    common.Address
	Value *big.Int
	Raw   *types.Log // Blockchain specific contextual infos
}

const UniswapV2PairTransferEventName = "Transfer"

// ContractEventName returns the user-defined event name.
func (UniswapV2PairTransfer) ContractEventName() string {
	return UniswapV2PairTransferEventName
}

// UnpackTransferEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transfer(address indexed from, address indexed to, uint256 value)
func (uniswapV2Pair *UniswapV2Pair) UnpackTransferEvent(log *types.Log) (*UniswapV2PairTransfer, error) {
	event := "Transfer"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != uniswapV2Pair.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(UniswapV2PairTransfer)
	if len(log.Data) > 0 {
		if err := uniswapV2Pair.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range uniswapV2Pair.abi.Events[event].Inputs {
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
