package trade

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"time"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/market"
)

// RouterDeadline is how long a built router call stays valid on chain (its deadline argument).
const RouterDeadline = 20 * time.Minute

// Build is an unsigned build: ordered transactions for the caller's wallet, the fees they pay,
// the quote used, and a confirmation token.
type Build struct {
	Transactions      []Tx           `json:"transactions"`
	Fees              []Fee          `json:"fees"`
	Quote             *SwapQuote     `json:"quote,omitempty"`
	SolanaQuote       *SolanaQuote   `json:"solanaQuote,omitempty"` // the quote a Solana swap build built
	Metadata          map[string]any `json:"metadata"`
	ConfirmationToken string         `json:"confirmationToken"`

	token *pendingToken // the token's row, stored by Keep
}

// Tx is one transaction of a build, to sign and send in order. EVM: a call (amounts are decimal
// wei strings). Solana: ID, From (the fee payer and signer), Encoding "base64" and
// Payload.Transaction; the EVM fields are zero.
type Tx struct {
	ID                   string   `json:"id"`
	ChainID              int64    `json:"chainId"`
	From                 string   `json:"from"`
	To                   string   `json:"to"`
	Data                 string   `json:"data"`
	Value                string   `json:"value"`
	Gas                  uint64   `json:"gas"`
	MaxFeePerGas         string   `json:"maxFeePerGas"`
	MaxPriorityFeePerGas string   `json:"maxPriorityFeePerGas"`
	Nonce                uint64   `json:"nonce"`
	Payload              *Payload `json:"payload,omitempty"`
	Encoding             string   `json:"encoding,omitempty"` // Solana: "base64"
}

// Payload holds what the caller must wait for after sending an EVM call, or a Solana transaction.
type Payload struct {
	Expect *Expect `json:"expect,omitempty"`
	// Transaction is a Solana build's serialized transaction (base64): one signature slot per
	// signer, zero until signed, and a recent blockhash.
	Transaction string `json:"transaction,omitempty"`
}

// Expect is a state the next call needs once this one is mined.
type Expect struct {
	Allowance *AllowanceExpect `json:"allowance,omitempty"`
}

// AllowanceExpect is an ERC-20 allowance of owner to spender of at least Amount (base units).
type AllowanceExpect struct {
	Token   string `json:"token"`
	Owner   string `json:"owner"`
	Spender string `json:"spender"`
	Amount  string `json:"amount"`
}

// Fee is one fee row of a build: the network fee of one transaction (kind network, in the gas
// token), a venue's fee on one pool of the route (kind venue, in the hop's input token), and on
// Solana the priority fee, rent and a Token-2022 transfer fee. Every row, on both chain families,
// says its amount the same way: Amount in token units, BaseUnits as an integer, with the token's
// Decimals (newFee).
type Fee struct {
	Kind      string `json:"kind"`
	TxID      string `json:"txId,omitempty"`
	Venue     string `json:"venue,omitempty"`
	Pool      string `json:"pool,omitempty"`
	FeeBps    int    `json:"feeBps,omitempty"`
	Token     string `json:"token"`
	Amount    string `json:"amount"`
	BaseUnits string `json:"baseUnits"`
	Decimals  int    `json:"decimals"`
	USD       string `json:"usd,omitempty"`
}

// newFee is a fee row of kind: base units of token (native or an address) with its decimals.
func newFee(kind, token string, base *big.Int, decimals int) Fee {
	return Fee{Kind: kind, Token: token, Amount: market.Units(base, decimals), BaseUnits: base.String(), Decimals: decimals}
}

// txFee is a fee row of the transaction txID of a Solana build: n base units of token (Native for
// lamports) with its decimals.
func txFee(txID, kind, token string, n uint64, decimals int) Fee {
	fee := newFee(kind, token, new(big.Int).SetUint64(n), decimals)
	fee.TxID = txID
	return fee
}

// step is one call a builder wants, before simulation.
type step struct {
	id     string
	to     string
	data   []byte
	value  *big.Int
	expect *AllowanceExpect
}

// callStep is the step id making call c.
func callStep(id string, c chain.EVMCall) step {
	return step{id: id, to: c.To, data: c.Data, value: c.Value}
}

// assembly is what finish needs besides the steps.
type assembly struct {
	c          *EVMChain
	consumerID int
	user       string
	state      chain.EVMTradeState
	nativeUSD  *big.Rat
	venueFees  []Fee
	quote      *SwapQuote
	metadata   map[string]any
}

// finish simulates the steps in order as the wallet will send them, each in its own block after the
// one the request's state was read at (chain.EVMTradeState.Next: the next block's number, timestamp
// and base fee; each later step a block and a second later, after the previous one is mined), each
// seeing the earlier ones' effects, and turns them into the build: gas limits from the simulation
// (chain.EVMGasLimit: the gas the call needs, refunds and nested calls counted, plus a tenth and
// 20,000), EIP-1559 fees from the fee market read with the request's state, consecutive nonces from
// the user's pending nonce, network fee rows (at the simulated gas used), and a confirmation token
// bound to all of it. A step that would revert is a *SimulationError.
func (s *Service) finish(ctx context.Context, a assembly, steps []step) (Build, error) {
	calls := make([]chain.EVMCall, len(steps))
	for i, st := range steps {
		calls[i] = chain.EVMCall{To: st.to, Data: st.data, Value: st.value}
	}
	sims, err := a.c.Source.Simulate(ctx, a.state.Next(s.now()), a.user, calls)
	if err != nil {
		return Build{}, fmt.Errorf("simulate: %w", err)
	}
	var failed []string
	for i, r := range sims {
		if !r.OK {
			failed = append(failed, fmt.Sprintf("%s: %s", steps[i].id, r.Revert))
		}
	}
	if len(failed) > 0 {
		return Build{}, &SimulationError{Reasons: failed}
	}
	tip := a.state.Tip
	maxFee := new(big.Int).Add(new(big.Int).Mul(a.state.BaseFee, big.NewInt(2)), tip)
	b := Build{Quote: a.quote, Metadata: a.metadata, Fees: []Fee{}}
	if b.Metadata == nil {
		b.Metadata = map[string]any{}
	}
	b.Metadata["simulatedAtBlock"] = a.state.Block
	for i, st := range steps {
		value := st.value
		if value == nil {
			value = new(big.Int)
		}
		tx := Tx{ID: st.id, ChainID: a.c.ChainID, From: a.user, To: st.to, Data: "0x" + hex.EncodeToString(st.data), Value: value.String(),
			Gas: chain.EVMGasLimit(sims[i]), MaxFeePerGas: maxFee.String(), MaxPriorityFeePerGas: tip.String(), Nonce: a.state.Nonce + uint64(i)}
		if st.expect != nil {
			tx.Payload = &Payload{Expect: &Expect{Allowance: st.expect}}
		}
		b.Transactions = append(b.Transactions, tx)
		fee, wei := networkFee(sims[i].GasUsed, a.state, a.nativeUSD)
		row := newFee("network", Native, wei, nativeDecimals)
		row.TxID, row.USD = st.id, fee.USD
		b.Fees = append(b.Fees, row)
	}
	b.Fees = append(b.Fees, a.venueFees...)
	if err := s.tokens.issue(a.consumerID, a.c.Info.Name, &b, s.now()); err != nil {
		return Build{}, err
	}
	return b, nil
}

// approval is the approve step a call spending amount of token through spender needs, or nil when
// the allowance already suffices. It approves exactly amount, never more.
func approval(token, owner, spender string, allowance, amount *big.Int) *step {
	if allowance != nil && allowance.Cmp(amount) >= 0 {
		return nil
	}
	st := callStep("approve", chain.ERC20ApproveCall(token, spender, amount))
	st.expect = &AllowanceExpect{Token: token, Owner: owner, Spender: spender, Amount: amount.String()}
	return &st
}

// insufficient is the prerequisite error of a balance below what a build spends.
func insufficient(what string, have, need *big.Int, decimals int) error {
	if have == nil {
		return fmt.Errorf("%w: the balance of %s could not be read (is it an ERC-20?)", ErrPrerequisite, what)
	}
	return fmt.Errorf("%w: insufficient balance: %s of %s held, %s needed", ErrPrerequisite,
		market.Units(have, decimals), what, market.Units(need, decimals))
}
