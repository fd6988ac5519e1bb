package evm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
)

var someone = common.HexToAddress("0x00000000000000000000000000000000000000aa")

func dialReader(t *testing.T, url string) *Reader {
	t.Helper()
	c, err := rpc.DialContext(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	r, err := New(c, Multicall3Address)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fakeRPC serves handler over real HTTP and returns its URL.
func fakeRPC(t *testing.T, handler http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return srv.URL
}

// jsonRPC answers single JSON-RPC requests with result(method): a result or a JSON-RPC error.
func jsonRPC(result func(method string) (any, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
})) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, "batch not supported here", http.StatusBadRequest)
			return
		}
		res, rpcErr := result(req.Method)
		resp := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if rpcErr != nil {
			resp["error"] = rpcErr
		} else {
			resp["result"] = res
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}
}

const secret = "internal-node-7 says: quota exhausted for key abc123"

func checkKind(t *testing.T, err error, want ErrorKind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want kind %s", want)
	}
	if got := KindOf(err); got != want {
		t.Fatalf("kind = %q, want %q (%v)", got, want, err.(*Error).Detail())
	}
	var e *Error
	if !errors.As(err, &e) || e.Op == "" {
		t.Fatalf("%T is not an *Error with an operation", err)
	}
	msg := err.Error()
	for _, leak := range []string{"refused", "127.0.0.1", "internal-node", "abc123", "503", "invalid character"} {
		if strings.Contains(msg, leak) {
			t.Fatalf("caller-facing message %q leaks RPC detail %q", msg, leak)
		}
	}
}

func TestUnavailable(t *testing.T) {
	r := dialReader(t, "http://127.0.0.1:"+strconv.Itoa(freePort(t))) // nothing listens there
	_, _, _, err := r.Balances(t.Context(), []common.Address{someone}, [][]common.Address{{someone}})
	checkKind(t, err, KindUnavailable)
	if !strings.Contains(err.(*Error).Detail(), "refused") {
		t.Errorf("Detail (for logs) lost the cause: %s", err.(*Error).Detail())
	}
	_, err = r.TokenMetadata(t.Context(), []common.Address{someone})
	checkKind(t, err, KindUnavailable)
	_, err = r.PairStates(t.Context(), []common.Address{someone})
	checkKind(t, err, KindUnavailable)

	down := fakeRPC(t, func(w http.ResponseWriter, _ *http.Request) { http.Error(w, secret, http.StatusServiceUnavailable) })
	_, err = dialReader(t, down).TokenMetadata(t.Context(), []common.Address{someone})
	checkKind(t, err, KindUnavailable)
}

func TestDeadline(t *testing.T) {
	slow := fakeRPC(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // so the server notices the client hanging up
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	r := dialReader(t, slow)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, _, err := r.Balances(ctx, []common.Address{someone}, [][]common.Address{nil})
	checkKind(t, err, KindTimeout)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("errors.Is(err, context.DeadlineExceeded) = false: %s", err.(*Error).Detail())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("returned after %s: the deadline was not honoured", d)
	}

	ctx, cancel = context.WithCancel(t.Context())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = r.PairStates(ctx, []common.Address{someone})
	checkKind(t, err, KindCanceled)
}

func TestBadResponse(t *testing.T) {
	type rpcError = struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	cases := map[string]http.HandlerFunc{
		"garbage body": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte("{not json " + secret))
		},
		"JSON-RPC error": jsonRPC(func(string) (any, *rpcError) { return nil, &rpcError{Code: -32005, Message: secret} }),
		// No Multicall3 at the address: eth_call of code-less account returns empty data.
		"no Multicall3": jsonRPC(func(m string) (any, *rpcError) {
			if m == "eth_blockNumber" {
				return "0x10", nil
			}
			return "0x", nil
		}),
		// aggregate3 returning fewer results than calls.
		"short result": jsonRPC(func(m string) (any, *rpcError) {
			if m == "eth_blockNumber" {
				return "0x10", nil
			}
			data, _ := multicall3ABI.Methods["aggregate3"].Outputs.Pack([]result{{Success: true, ReturnData: make([]byte, 32)}})
			return "0x" + common.Bytes2Hex(data), nil
		}),
	}
	for name, h := range cases {
		t.Run(name, func(t *testing.T) {
			r := dialReader(t, fakeRPC(t, h))
			_, _, _, err := r.Balances(t.Context(), []common.Address{someone, someone}, [][]common.Address{{someone}, {someone}})
			checkKind(t, err, KindBadResponse)
		})
	}
}

func TestNewRejectsZeroMulticall(t *testing.T) {
	c, err := rpc.DialContext(t.Context(), "http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := New(c, common.Address{}); KindOf(err) != KindInvalidInput {
		t.Fatalf("New with zero Multicall3 = %v, want %s", err, KindInvalidInput)
	}
}

func TestEmptyInputsMakeNoCalls(t *testing.T) {
	r := dialReader(t, "http://127.0.0.1:"+strconv.Itoa(freePort(t)))
	if m, err := r.TokenMetadata(t.Context(), nil); err != nil || len(m) != 0 {
		t.Fatalf("TokenMetadata(nil) = %v, %v", m, err)
	}
	if n, e, b, err := r.Balances(t.Context(), nil, nil); err != nil || n != nil || e != nil || b != 0 {
		t.Fatalf("Balances(nil) = %v %v %d %v", n, e, b, err)
	}
	if p, err := r.PairStates(t.Context(), nil); err != nil || len(p) != 0 {
		t.Fatalf("PairStates(nil) = %v, %v", p, err)
	}
}

func TestChunk(t *testing.T) {
	bal := call{CallData: make([]byte, 36)} // balanceOf: 224 encoded bytes
	if calldataSize(bal) != 224 {
		t.Fatalf("calldataSize = %d", calldataSize(bal))
	}
	per := MaxCalldataPerCall / 224
	for _, n := range []int{1, 24 * 7, per, per + 1, 3*per + 7} {
		calls := make([]call, n)
		for i := range calls {
			calls[i] = bal
		}
		chunks := chunk(calls)
		total := 0
		for _, c := range chunks {
			total += len(c)
			if len(c)*224 > MaxCalldataPerCall {
				t.Fatalf("n=%d: chunk of %d calls", n, len(c))
			}
		}
		if want := (n + per - 1) / per; total != n || len(chunks) != want {
			t.Fatalf("n=%d: %d calls in %d chunks, want %d chunks", n, total, len(chunks), want)
		}
	}
}
