// Package svmtest runs SBPF programs in LiteSVM for tests: a node process (svm.mjs beside this
// file, on the local validator's npm packages) that deploys programs, writes accounts and executes
// unsigned transactions exactly as built.
package svmtest

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain/internal/npmpkg"
)

// ErrUnavailable says LiteSVM cannot run here: no node, no npm packages, or a platform the pinned
// native module does not support.
var ErrUnavailable = errors.New("litesvm unavailable")

// SVM is one LiteSVM instance in a node process. Its methods fail the test on a broken request.
type SVM struct {
	t    testing.TB
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Scanner
	mu   sync.Mutex
	errs *tail
}

// Account is an account as LiteSVM holds it.
type Account struct {
	Lamports   uint64
	Owner      solana.PublicKey
	Data       []byte
	Executable bool
}

// Result is what a transaction did.
type Result struct {
	OK    bool            // it succeeded
	Err   json.RawMessage // Solana's TransactionError in JSON, such as {"InstructionError":[0,{"Custom":6005}]}
	Logs  []string
	Units uint64 // compute units consumed
}

// Start starts a LiteSVM for the test's lifetime. It skips the test when LiteSVM is unavailable,
// unless PARTNER_TEST_REQUIRE_ALL=1, which makes that a failure.
func Start(t testing.TB) *SVM {
	t.Helper()
	s, err := start(t)
	if errors.Is(err, ErrUnavailable) {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("LiteSVM is required (PARTNER_TEST_REQUIRE_ALL=1) but unavailable: %v", err)
		}
		t.Skipf("skipping: LiteSVM is unavailable (set PARTNER_TEST_REQUIRE_ALL=1 to fail instead): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var install = sync.OnceValues(func() (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("%w: the pinned litesvm native module is for linux/amd64, this is %s/%s", ErrUnavailable, runtime.GOOS, runtime.GOARCH)
	}
	_, file, _, _ := runtime.Caller(0)
	dir, err := npmpkg.Dir(filepath.Join(filepath.Dir(file), "..", "..", "..", "validator"), "chain/solana/validator")
	if err != nil {
		return "", err
	}
	if err := npmpkg.Install(dir, filepath.Join(dir, "node_modules", "litesvm-linux-x64-gnu", "package.json")); err != nil {
		if errors.Is(err, npmpkg.ErrUnavailable) {
			return "", fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		return "", err
	}
	return filepath.Join(dir, "..", "program", "internal", "svmtest", "svm.mjs"), nil
})

func start(t testing.TB) (*SVM, error) {
	script, err := install()
	if err != nil {
		return nil, fmt.Errorf("start litesvm: %w", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("start litesvm: %w: node is not on PATH", ErrUnavailable)
	}
	cmd := exec.Command(node, script)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start litesvm: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start litesvm: %w", err)
	}
	errs := &tail{}
	cmd.Stderr = errs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start litesvm: %w", err)
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	s := &SVM{t: t, cmd: cmd, in: in, out: sc, errs: errs}
	t.Cleanup(func() {
		_ = in.Close()
		_ = cmd.Wait()
	})
	return s, nil
}

// call sends one request and decodes its answer into v.
func (s *SVM) call(req map[string]any, v any) {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := json.Marshal(req)
	if err != nil {
		s.t.Fatalf("litesvm %s: %v", req["op"], err)
	}
	if _, err := s.in.Write(append(b, '\n')); err != nil {
		s.t.Fatalf("litesvm %s: %v: %s", req["op"], err, s.errs)
	}
	if !s.out.Scan() {
		s.t.Fatalf("litesvm %s: no answer: %v: %s", req["op"], s.out.Err(), s.errs)
	}
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(s.out.Bytes(), &e); err != nil {
		s.t.Fatalf("litesvm %s: %v: %s", req["op"], err, s.out.Text())
	}
	if e.Error != "" {
		s.t.Fatalf("litesvm %s: %s", req["op"], e.Error)
	}
	if v != nil {
		if err := json.Unmarshal(s.out.Bytes(), v); err != nil {
			s.t.Fatalf("litesvm %s: %v: %s", req["op"], err, s.out.Text())
		}
	}
}

// AddProgram deploys an SBPF program (an ELF shared object) at id.
func (s *SVM) AddProgram(id solana.PublicKey, so []byte) {
	s.t.Helper()
	s.call(map[string]any{"op": "program", "id": id.String(), "so": base64.StdEncoding.EncodeToString(so)}, nil)
}

// SetAccount writes an account.
func (s *SVM) SetAccount(addr solana.PublicKey, a Account) {
	s.t.Helper()
	s.call(map[string]any{"op": "account", "address": addr.String(), "lamports": strconv.FormatUint(a.Lamports, 10),
		"owner": a.Owner.String(), "data": base64.StdEncoding.EncodeToString(a.Data), "executable": a.Executable}, nil)
}

// Account reads an account; nil when it does not exist.
func (s *SVM) Account(addr solana.PublicKey) *Account {
	s.t.Helper()
	var r struct {
		Account *struct {
			Lamports   string `json:"lamports"`
			Owner      string `json:"owner"`
			Data       string `json:"data"`
			Executable bool   `json:"executable"`
		} `json:"account"`
	}
	s.call(map[string]any{"op": "get", "address": addr.String()}, &r)
	if r.Account == nil {
		return nil
	}
	l, err := strconv.ParseUint(r.Account.Lamports, 10, 64)
	if err != nil {
		s.t.Fatalf("litesvm get %s: lamports: %v", addr, err)
	}
	d, err := base64.StdEncoding.DecodeString(r.Account.Data)
	if err != nil {
		s.t.Fatalf("litesvm get %s: data: %v", addr, err)
	}
	return &Account{Lamports: l, Owner: solana.MustPublicKeyFromBase58(r.Account.Owner), Data: d, Executable: r.Account.Executable}
}

// SetClock sets the Clock sysvar.
func (s *SVM) SetClock(slot, epoch uint64, unix int64) {
	s.t.Helper()
	s.call(map[string]any{"op": "clock", "slot": slot, "epoch": epoch, "unix": unix}, nil)
}

// Rent is the rent-exempt minimum balance of an account of size bytes.
func (s *SVM) Rent(size int) uint64 {
	s.t.Helper()
	var r struct {
		Lamports string `json:"lamports"`
	}
	s.call(map[string]any{"op": "rent", "size": size}, &r)
	l, err := strconv.ParseUint(r.Lamports, 10, 64)
	if err != nil {
		s.t.Fatalf("litesvm rent: %v", err)
	}
	return l
}

// Send executes one transaction of the instructions, paid by payer, unsigned (LiteSVM verifies no
// signatures here, so any account can be a signer).
func (s *SVM) Send(payer solana.PublicKey, ixs ...solana.Instruction) Result {
	s.t.Helper()
	tx, err := solana.NewTransaction(ixs, solana.Hash{}, solana.TransactionPayer(payer))
	if err != nil {
		s.t.Fatalf("litesvm tx: %v", err)
	}
	tx.Signatures = make([]solana.Signature, tx.Message.Header.NumRequiredSignatures)
	wire, err := tx.MarshalBinary()
	if err != nil {
		s.t.Fatalf("litesvm tx: %v", err)
	}
	var r struct {
		OK    bool            `json:"ok"`
		Err   json.RawMessage `json:"err"`
		Logs  []string        `json:"logs"`
		Units uint64          `json:"units"`
	}
	s.call(map[string]any{"op": "tx", "wire": base64.StdEncoding.EncodeToString(wire)}, &r)
	return Result{OK: r.OK, Err: r.Err, Logs: r.Logs, Units: r.Units}
}

// tail keeps the last 64 KiB written to it (the node process's stderr).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (w *tail) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > 64<<10 {
		w.buf = w.buf[len(w.buf)-64<<10:]
	}
	return len(p), nil
}

func (w *tail) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(w.buf)
}
