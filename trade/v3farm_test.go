package trade

import (
	"errors"
	"testing"

	"github.com/partner-platform/partnerd/chain"
)

// TestChooseIncentive: the incentive lp/farm stakes in is the one named, if it is the pool's and
// live, or else the pool's only live one; several live without a name is ErrInvalid, none or a
// wrong one ErrPrerequisite.
func TestChooseIncentive(t *testing.T) {
	in := func(id string, start, end uint64) chain.V3Incentive {
		return chain.V3Incentive{ID: id, StartTime: start, EndTime: end}
	}
	ended, live, later, live2 := in("0xa", 10, 20), in("0xb", 10, 200), in("0xc", 150, 300), in("0xd", 50, 500)
	cases := []struct {
		name       string
		incentives []chain.V3Incentive
		id         string
		want       string
		err        error
	}{
		{"the only live one", []chain.V3Incentive{ended, live, later}, "", "0xb", nil},
		{"named", []chain.V3Incentive{live, live2}, "0xD", "0xd", nil},
		{"several live", []chain.V3Incentive{live, live2}, "", "", ErrInvalid},
		{"none live", []chain.V3Incentive{ended, later}, "", "", ErrPrerequisite},
		{"none at all", nil, "", "", ErrPrerequisite},
		{"named, ended", []chain.V3Incentive{ended, live}, "0xa", "", ErrPrerequisite},
		{"named, not started", []chain.V3Incentive{later}, "0xc", "", ErrPrerequisite},
		{"named, not the pool's", []chain.V3Incentive{live}, "0xe", "", ErrPrerequisite},
	}
	for _, c := range cases {
		got, err := chooseIncentive(chain.V3StakerState{Incentives: c.incentives}, c.id, 100)
		if (c.err == nil && (err != nil || got.ID != c.want)) || (c.err != nil && !errors.Is(err, c.err)) {
			t.Errorf("%s: %q, %v; want %q, %v", c.name, got.ID, err, c.want, c.err)
		}
	}
}
