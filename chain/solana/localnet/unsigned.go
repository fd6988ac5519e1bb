package localnet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// UnsignedRun is what one transaction did when run straight in LiteSVM (RunUnsigned), in the shapes
// of getTransaction's meta.
type UnsignedRun struct {
	Landed            bool              `json:"landed"` // false: it could not even pay its fee
	Err               json.RawMessage   `json:"err"`    // Solana's TransactionError; null when it succeeded
	Error             string            `json:"error"`  // the transaction could not be read
	Logs              []string          `json:"logs"`
	Accounts          []string          `json:"accounts"`
	PostBalances      []uint64          `json:"postBalances"`
	PostTokenBalances []json.RawMessage `json:"postTokenBalances"`
}

// Succeeded reports whether the transaction landed without an error.
func (r UnsignedRun) Succeeded() bool {
	return r.Landed && (len(r.Err) == 0 || string(r.Err) == "null")
}

// RunUnsigned executes unsigned transactions (base64, as a build returns them) exactly as built, in
// order, straight in a fresh LiteSVM seeded from seed as the validator seeds it, with signature
// verification and the blockhash check off (chain/solana/validator/run-unsigned.mjs). Built against
// a validator with the same seed that has run nothing else, they see the state they were built for.
func RunUnsigned(ctx context.Context, seed string, txs []string) ([]UnsignedRun, error) {
	dir, err := install()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("%w: node is not on PATH: %v", ErrUnavailable, err)
	}
	if seed == "" {
		seed = DefaultSeed
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "run-unsigned.mjs"), "--seed", seed)
	cmd.Stdin = strings.NewReader(strings.Join(txs, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("run unsigned transactions in LiteSVM: %w: %s", err, stderr.String())
	}
	var runs []UnsignedRun
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var r UnsignedRun
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("run unsigned transactions in LiteSVM: %w: %s", err, sc.Text())
		}
		runs = append(runs, r)
	}
	if len(runs) != len(txs) {
		return nil, fmt.Errorf("run unsigned transactions in LiteSVM: %d results for %d transactions", len(runs), len(txs))
	}
	return runs, nil
}
