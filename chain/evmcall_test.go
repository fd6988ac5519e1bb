package chain

import (
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
)

// TestEVMCalldata holds the encoding to calldata known from the ERC-20 ABI: approve's selector
// 0x095ea7b3, transfer's 0xa9059cbb, each argument one left-padded word.
func TestEVMCalldata(t *testing.T) {
	t.Parallel()
	spender := "0x4752BA5DBc23f44D87826276BF6Fd6b1C372aD24"
	got := hex.EncodeToString(ERC20ApproveCall("0x0", spender, big.NewInt(1000)).Data)
	want := "095ea7b3" + "0000000000000000000000004752ba5dbc23f44d87826276bf6fd6b1c372ad24" +
		"00000000000000000000000000000000000000000000000000000000000003e8"
	if got != want {
		t.Errorf("approve calldata\n got %s\nwant %s", got, want)
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	got = hex.EncodeToString(ERC20TransferCall("0x0", spender, max).Data)
	if want := "a9059cbb" + "0000000000000000000000004752ba5dbc23f44d87826276bf6fd6b1c372ad24" + strings.Repeat("f", 64); got != want {
		t.Errorf("transfer calldata\n got %s\nwant %s", got, want)
	}
	for _, bad := range []any{"0x12", new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(-1), 7} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("EVMCalldata accepted %v", bad)
				}
			}()
			EVMCalldata("f(uint256)", bad)
		}()
	}
}
