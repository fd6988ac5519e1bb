package anvil

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/partner-platform/partnerd/chain/devnet"
)

// *ethclient.Client is what the simulated backend's client wraps: it has every method of
// simulated.Client, so over anvil it is the client as it is.
var _ simulated.Client = (*ethclient.Client)(nil)

var _ devnet.Backend = (*Backend)(nil)

// Backend adapts an anvil node to devnet.Backend, so devnet.Account and devnet.Deploy work
// against it unchanged.
type Backend struct {
	client *ethclient.Client
}

// Dial connects a Backend to an anvil JSON-RPC URL. Close it when done.
func Dial(ctx context.Context, url string) (*Backend, error) {
	c, err := ethclient.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("anvil: dial %s: %w", url, err)
	}
	return &Backend{client: c}, nil
}

// Backend dials the node; the connection is closed on the test's cleanup.
func (n *Node) Backend(t testing.TB) *Backend {
	t.Helper()
	b, err := Dial(t.Context(), n.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// Client is the node's client (an *ethclient.Client).
func (b *Backend) Client() simulated.Client { return b.client }

// EthClient is the node's client with its concrete type, for Client() (the raw *rpc.Client).
func (b *Backend) EthClient() *ethclient.Client { return b.client }

// Automines reports that anvil mines each transaction as it reaches its pool (devnet seeding then
// sends one transaction at a time).
func (b *Backend) Automines() bool { return true }

// Close closes the connection (not the node: that goes with the test).
func (b *Backend) Close() { b.client.Close() }

// commitTimeout bounds Commit's wait for the pool to drain.
const commitTimeout = 10 * time.Second

// Commit seals nothing: anvil automines, a block per transaction as it reaches the pool. It waits
// until anvil's pool has no pending transaction left (a transaction stays in the pool until its
// block is stored, so then its receipt is there) and returns the head block's hash, as anvil
// reports it. On an RPC failure or timeout it returns the zero hash; the receipt lookup that
// follows in devnet.Account.Send reports the problem.
func (b *Backend) Commit() common.Hash {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	rc := b.client.Client()
	for {
		var st struct {
			Pending hexutil.Uint64 `json:"pending"`
		}
		if err := rc.CallContext(ctx, &st, "txpool_status"); err != nil {
			return common.Hash{}
		}
		if st.Pending == 0 {
			break
		}
		select {
		case <-ctx.Done():
			return common.Hash{}
		case <-time.After(time.Millisecond):
		}
	}
	var head struct {
		Hash common.Hash `json:"hash"`
	}
	if err := rc.CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		return common.Hash{}
	}
	return head.Hash
}
