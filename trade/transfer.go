package trade

import (
	"context"
	"fmt"
	"strings"

	"github.com/partner-platform/partnerd/chain"
)

// TransferRequest is a transfer build: Amount (token units) of Token (an address or Native) from
// User to To.
type TransferRequest struct {
	Chain, User, To, Token, Amount string
}

// BuildTransfer builds a native transfer or an ERC-20 transfer. The amount converts exactly with
// the token's decimals (18 for every gas token, arc's native USDC too; the ERC-20's own decimals
// otherwise). Errors: ErrInvalidAmount (more decimals than the token has), ErrInvalid (not an
// ERC-20), ErrPrerequisite (balance), *SimulationError, and the adapter's and the store's.
//
// On a Solana chain (WithSolana) Token is a mint or Native (SOL, 9 decimals) and the build is one
// base64 transaction (Tx.Encoding, Payload.Transaction) with fee rows network, priority, rent (a
// created associated token account) and transfer_fee (Token-2022); see buildSolanaTransfer in
// solana.go. Its errors are the same kinds; an address that is not a Solana address is ErrInvalid
// that also matches chain.ErrInvalidAddress.
func (s *Service) BuildTransfer(ctx context.Context, consumerID int, r TransferRequest) (Build, error) {
	c, err := s.chainOf(r.Chain)
	if err != nil {
		return Build{}, err
	}
	return c.buildTransfer(ctx, s, consumerID, r)
}

// buildTransfer builds a transfer on an EVM chain (BuildTransfer).
func (c *EVMChain) buildTransfer(ctx context.Context, s *Service, consumerID int, r TransferRequest) (Build, error) {
	user, to := strings.ToLower(r.User), strings.ToLower(r.To)
	native := r.Token == Native
	token := strings.ToLower(r.Token)
	read := chain.EVMTradeRead{Owner: user}
	if !native {
		read.Balances, read.Decimals = []string{token}, []string{token}
	}
	st, nativeUSD, err := c.readPriced(ctx, read)
	if err != nil {
		return Build{}, fmt.Errorf("transfer: %w", err)
	}
	decimals, balance, symbol := nativeDecimals, st.Native, c.Info.NativeToken
	if !native {
		if st.Decimals[0] < 0 {
			return Build{}, fmt.Errorf("%w: token %s does not answer decimals(): is it an ERC-20?", ErrInvalid, r.Token)
		}
		decimals, balance, symbol = st.Decimals[0], st.Balances[0], token
	}
	amount, err := chain.HumanToBaseUnits(r.Amount, decimals)
	if err != nil {
		return Build{}, err
	}
	if balance == nil || balance.Cmp(amount) < 0 {
		return Build{}, insufficient(symbol, balance, amount, decimals)
	}
	st1 := step{id: "transfer", to: to, value: amount}
	if !native {
		st1 = callStep("transfer", chain.ERC20TransferCall(token, to, amount))
	}
	return s.finish(ctx, assembly{c: c, consumerID: consumerID, user: user, state: st, nativeUSD: nativeUSD,
		metadata: map[string]any{"token": r.Token, "to": to, "amount": r.Amount, "baseUnits": amount.String(), "decimals": decimals}}, []step{st1})
}
