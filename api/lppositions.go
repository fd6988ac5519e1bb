package api

import (
	"context"
	"strings"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/trade"
)

// lpPath is an LP operation's path below /v1/build/: lp/add for buildLPAdd.
func lpPath(opID string) string {
	for _, op := range lpOps {
		if op.id == opID {
			return strings.TrimPrefix(op.path, "/v1/build/")
		}
	}
	return opID
}

// buildLPPositions builds an LP operation on an EVM venue of NFT-style positions (uniswap-v3):
// add takes pool, a range (tickLower and tickUpper, or priceLower and priceUpper) and amountA and
// amountB; increase one position of positionIds and amountA and amountB; remove one position and
// bps; harvest and compound one position; rebalance one position and a range as add takes it;
// create tokenA, tokenB, feeTier, price, a range and amounts as add takes them; farm one position,
// optionally action and incentiveId; migrate pool (a uniswap-v2 pair), bps, feeTier and a range as
// add takes it.
func (s *Server) buildLPPositions(ctx context.Context, opID string, spec chain.VenueSpec, b BuildLPRequest) (*output[BuildResponse], error) {
	if b.Version != spec.Version {
		return nil, Errorf(CodeInvalidRequest, "%s takes version %s, not %q", spec.Name, spec.Version, b.Version)
	}
	fields := []field{addr("user", b.User)}
	if opID == "buildLPMigrate" {
		if len(b.PositionIDs) > 0 || b.Pool == "" || b.Bps == nil || b.FeeTier == nil {
			return nil, Errorf(CodeInvalidRequest, "%s lp/migrate takes pool (the uniswap-v2 pair whose LP tokens migrate), bps (the share of "+
				"the LP balance), feeTier (the new position's pool: 500, 3000 or 10000) and a range, not positionIds", spec.Name)
		}
		if !ranged(b) {
			return nil, Errorf(CodeInvalidRequest, "%s lp/migrate takes the range as tickLower and tickUpper, or as priceLower and priceUpper", spec.Name)
		}
		fields = append(fields, addr("pool", b.Pool))
	} else if opID == "buildLPCreate" {
		if len(b.PositionIDs) > 0 || b.Pool != "" || b.TokenA == "" || b.TokenB == "" || b.FeeTier == nil {
			return nil, Errorf(CodeInvalidRequest, "%s lp/create takes tokenA, tokenB, feeTier (100, 500, 3000 or 10000), price (the initial "+
				"price, token1 per token0, when the pool does not exist), a range and amountA and amountB; not pool or positionIds", spec.Name)
		}
		if !ranged(b) {
			return nil, Errorf(CodeInvalidRequest, "%s lp/create takes the range as tickLower and tickUpper, or as priceLower and priceUpper", spec.Name)
		}
		fields = append(fields, addr("tokenA", b.TokenA), addr("tokenB", b.TokenB))
	} else if opID == "buildLPAdd" {
		if len(b.PositionIDs) > 0 || b.Pool == "" {
			return nil, Errorf(CodeInvalidRequest, "%s lp/add mints a new position: give pool (the pool's address), not positionIds; lp/increase adds to a position", spec.Name)
		}
		if !ranged(b) {
			return nil, Errorf(CodeInvalidRequest, "%s lp/add takes the range as tickLower and tickUpper, or as priceLower and priceUpper", spec.Name)
		}
		fields = append(fields, addr("pool", b.Pool), field{name: "tokenA", value: b.TokenA, optional: true}, field{name: "tokenB", value: b.TokenB, optional: true})
	} else if len(b.PositionIDs) != 1 || b.Pool != "" {
		return nil, Errorf(CodeInvalidRequest, "%s %s takes positionIds with exactly one position id, and no pool", spec.Name, lpPath(opID))
	}
	if opID == "buildLPRebalance" && !ranged(b) {
		return nil, Errorf(CodeInvalidRequest, "%s lp/rebalance takes the new range as tickLower and tickUpper, or as priceLower and priceUpper", spec.Name)
	}
	switch opID {
	case "buildLPAdd", "buildLPIncrease", "buildLPCreate":
		if b.AmountA == "" || b.AmountB == "" {
			return nil, Errorf(CodeInvalidAmount, "%s takes amountA and amountB, in human token units (0 for a side the range does not take)", lpPath(opID))
		}
		if (b.TokenA == "") != (b.TokenB == "") {
			return nil, Errorf(CodeInvalidRequest, "give both tokenA and tokenB (the tokens amountA and amountB are of), or neither (token0 and token1)")
		}
	case "buildLPRemove":
		if b.Bps == nil {
			return nil, Errorf(CodeInvalidRequest, "remove takes bps: the share of the position in basis points, 1 to 10000")
		}
	}
	if b.IncentiveID != "" && (opID != "buildLPFarm" || b.Action == "unstake") {
		return nil, Errorf(CodeInvalidRequest, "incentiveId names the incentive lp/farm stakes in; unstaking leaves every incentive")
	}
	return s.runLP(ctx, opID, b, fields)
}

// runLP builds an LP operation whose body is checked: its amounts parsed (human units), the
// chain resolved with fields; the trade service reads, of the body, what the operation takes.
func (s *Server) runLP(ctx context.Context, opID string, b BuildLPRequest, fields []field) (*output[BuildResponse], error) {
	if e := lpAmountsError(b); e != nil {
		return nil, e
	}
	c, e := s.resolve(ctx, string(b.Chain), fields...)
	if e == nil {
		e = s.serving(ctx, c)
	}
	if e != nil {
		return nil, e
	}
	r := trade.LPRequest{Chain: c.Name, Venue: string(b.Venue), User: b.User, Pool: b.Pool, TokenA: b.TokenA, TokenB: b.TokenB,
		AmountA: b.AmountA, AmountB: b.AmountB, Native: b.Native, Amount: b.Amount, Unstake: b.Action == "unstake", IncentiveID: b.IncentiveID,
		SlippageBps: trade.DefaultLPSlippageBps, TickLower: b.TickLower, TickUpper: b.TickUpper, PriceLower: b.PriceLower,
		PriceUpper: b.PriceUpper, Price: b.Price}
	if len(b.PositionIDs) == 1 {
		r.PositionID = b.PositionIDs[0]
	}
	if b.FeeTier != nil {
		r.FeeTier = *b.FeeTier
	}
	if b.SlippageBps != nil {
		r.SlippageBps = *b.SlippageBps
	}
	if b.Bps != nil {
		r.Bps = *b.Bps
	}
	t := s.deps.Trade
	build, err := map[string]func(context.Context, int, trade.LPRequest) (trade.Build, error){
		"buildLPAdd": t.BuildLPAdd, "buildLPIncrease": t.BuildLPIncrease, "buildLPRemove": t.BuildLPRemove, "buildLPHarvest": t.BuildLPHarvest,
		"buildLPFarm": t.BuildLPFarm, "buildLPMigrate": t.BuildLPMigrate, "buildLPCreate": t.BuildLPCreate,
		"buildLPCompound": t.BuildLPCompound, "buildLPRebalance": t.BuildLPRebalance,
	}[opID](ctx, consumerOf(ctx), r)
	return buildOutput(ctx, build, err)
}

// lpAmountsError is the error of the first of a body's amounts (amountA, amountB, amount: human
// units) that does not parse; those absent are not checked.
func lpAmountsError(b BuildLPRequest) *Error {
	for _, amount := range []string{b.AmountA, b.AmountB, b.Amount} {
		if amount == "" {
			continue
		}
		if e := amountError(chain.ParseHumanAmount(amount, 36)); e != nil {
			return e
		}
	}
	return nil
}

// ranged reports whether a body gives a range one way: tickLower and tickUpper, or priceLower and
// priceUpper.
func ranged(b BuildLPRequest) bool {
	return (b.TickLower == nil) == (b.TickUpper == nil) && (b.PriceLower == "") == (b.PriceUpper == "") && (b.TickLower == nil) != (b.PriceLower == "")
}
