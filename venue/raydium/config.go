package raydium

import "fmt"

// AmmConfigSize is an AmmConfig account's size: its discriminator and Borsh fields.
const AmmConfigSize = 236

// AmmConfig is a CPMM fee configuration (states/config.rs), shared by the pools created under it.
type AmmConfig struct {
	Bump              uint8
	DisableCreatePool bool
	Index             uint16
	TradeFeeRate      uint64 // millionths of a swap's input
	ProtocolFeeRate   uint64 // millionths of the trade fee
	FundFeeRate       uint64 // millionths of the trade fee
	CreatePoolFee     uint64 // lamports initialize pays CreatePoolFeeReceiver
	ProtocolOwner     Pubkey
	FundOwner         Pubkey
	CreatorFeeRate    uint64 // millionths, where a pool enables the creator fee
}

// DecodeAmmConfig decodes an AmmConfig account's data. Errors wrap ErrLayout.
func DecodeAmmConfig(data []byte) (AmmConfig, error) {
	r, err := account("AmmConfig", data, AmmConfigDiscriminator, AmmConfigSize)
	if err != nil {
		return AmmConfig{}, err
	}
	var c AmmConfig
	c.Bump = r.u8()
	switch b := r.u8(); b { // Borsh: a bool is 0 or 1
	case 0, 1:
		c.DisableCreatePool = b == 1
	default:
		return AmmConfig{}, fmt.Errorf("%w: AmmConfig.disable_create_pool is %d, not a bool", ErrLayout, b)
	}
	c.Index = r.u16()
	c.TradeFeeRate = r.u64()
	c.ProtocolFeeRate = r.u64()
	c.FundFeeRate = r.u64()
	c.CreatePoolFee = r.u64()
	c.ProtocolOwner = r.key()
	c.FundOwner = r.key()
	c.CreatorFeeRate = r.u64()
	return c, nil // then padding: [u64; 15]
}
