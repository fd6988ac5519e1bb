package solana

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	sol "github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/base58"
)

// fakeRPC is a Solana JSON-RPC server for tests: a ledger of accounts loaded from the committed
// fixtures (testdata/accounts.json, in getProgramAccounts' keyed-account shape) that answers the
// account methods from it (getBalance, getMultipleAccounts, getTokenAccountsByOwner,
// getProgramAccounts with memcmp/dataSize filters and dataSlice, getTokenLargestAccounts), and the
// recorded responses of testdata/rpc/*.json for the others. It answers single requests and
// JSON-RPC batches, and counts HTTP round trips and calls per method.
type fakeRPC struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	accounts map[string]fixtureAccount
	recorded map[string]recording // by method
	byParam  map[string]json.RawMessage
	calls    map[string]int
	// override answers a call instead of the ledger when it returns ok: a result or an error.
	override func(method string, params []json.RawMessage) (result any, err *rpcErr, ok bool)
	// simulated are the transactions simulateTransaction was asked about, decoded.
	simulated []*sol.Transaction
	simParams []map[string]any

	roundTrips atomic.Int64
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// fixtureAccount is an account in Solana's JSON shape (base64 data).
type fixtureAccount struct {
	Data       [2]string `json:"data"`
	Executable bool      `json:"executable"`
	Lamports   uint64    `json:"lamports"`
	Owner      string    `json:"owner"`
	RentEpoch  uint64    `json:"rentEpoch"`
	Space      uint64    `json:"space"`
}

func (a fixtureAccount) bytes(t testing.TB) []byte {
	b, err := base64.StdEncoding.DecodeString(a.Data[0])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// recording is a recorded JSON-RPC exchange.
type recording struct {
	Request  json.RawMessage `json:"request"`
	Response struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcErr         `json:"error"`
	} `json:"response"`
}

const fakeSlot = 312_457_891

func newFakeRPC(t *testing.T) *fakeRPC {
	t.Helper()
	f := &fakeRPC{t: t, accounts: map[string]fixtureAccount{}, recorded: map[string]recording{}, byParam: map[string]json.RawMessage{},
		calls: map[string]int{}}
	var keyed []struct {
		Pubkey  string         `json:"pubkey"`
		Account fixtureAccount `json:"account"`
	}
	readJSON(t, "testdata/accounts.json", &keyed)
	for _, k := range keyed {
		f.accounts[k.Pubkey] = k.Account
	}
	files, err := filepath.Glob("testdata/rpc/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded responses: %v", err)
	}
	for _, name := range files {
		var rec recording
		readJSON(t, name, &rec)
		var req struct {
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(rec.Request, &req); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch req.Method {
		case "getTransaction": // by signature
			var sig string
			_ = json.Unmarshal(req.Params[0], &sig)
			f.byParam["getTransaction/"+sig] = rec.Response.Result
		case "getSignatureStatuses": // by signature, in order
			var sigs []string
			_ = json.Unmarshal(req.Params[0], &sigs)
			var res struct {
				Value []json.RawMessage `json:"value"`
			}
			_ = json.Unmarshal(rec.Response.Result, &res)
			for i, s := range sigs {
				f.byParam["getSignatureStatuses/"+s] = res.Value[i]
			}
		default:
			f.recorded[req.Method] = rec
		}
	}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// client returns a client of the fake.
func (f *fakeRPC) client(opts Options) *Client {
	f.t.Helper()
	c, err := New([]string{f.srv.URL}, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(c.Close)
	return c
}

// reset zeroes the counters.
func (f *fakeRPC) reset() {
	f.roundTrips.Store(0)
	f.mu.Lock()
	f.calls = map[string]int{}
	f.mu.Unlock()
}

func (f *fakeRPC) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

type request struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

func (f *fakeRPC) serve(w http.ResponseWriter, r *http.Request) {
	f.roundTrips.Add(1)
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var reqs []request
		if err := json.Unmarshal(b, &reqs); err != nil {
			http.Error(w, "bad batch", http.StatusBadRequest)
			return
		}
		out := make([]map[string]any, len(reqs))
		for i, q := range reqs {
			out[i] = f.answer(q)
		}
		slices.Reverse(out) // JSON-RPC lets a batch answer in any order
		_ = json.NewEncoder(w).Encode(out)
		return
	}
	var q request
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	_ = json.NewEncoder(w).Encode(f.answer(q))
}

func (f *fakeRPC) answer(q request) map[string]any {
	f.mu.Lock()
	f.calls[q.Method]++
	override := f.override
	f.mu.Unlock()
	resp := map[string]any{"jsonrpc": "2.0", "id": q.ID}
	if override != nil {
		if res, e, ok := override(q.Method, q.Params); ok {
			if e != nil {
				resp["error"] = e
			} else {
				resp["result"] = res
			}
			return resp
		}
	}
	res, e := f.result(q.Method, q.Params)
	if e != nil {
		resp["error"] = e
	} else {
		resp["result"] = res
	}
	return resp
}

func ctxValue(v any) map[string]any {
	return map[string]any{"context": map[string]any{"apiVersion": "2.2.7", "slot": fakeSlot}, "value": v}
}

func (f *fakeRPC) str(p json.RawMessage) string {
	var s string
	if err := json.Unmarshal(p, &s); err != nil {
		f.t.Errorf("param %s is not a string", p)
	}
	return s
}

type accountConfig struct {
	Encoding  string `json:"encoding"`
	DataSlice *struct {
		Offset int `json:"offset"`
		Length int `json:"length"`
	} `json:"dataSlice"`
	ProgramID string `json:"programId"`
	Filters   []struct {
		DataSize *int `json:"dataSize"`
		Memcmp   *struct {
			Offset int    `json:"offset"`
			Bytes  string `json:"bytes"`
		} `json:"memcmp"`
	} `json:"filters"`
}

func (f *fakeRPC) config(params []json.RawMessage, i int) accountConfig {
	var c accountConfig
	if len(params) > i {
		if err := json.Unmarshal(params[i], &c); err != nil {
			f.t.Errorf("config %s: %v", params[i], err)
		}
	}
	return c
}

// view renders an account as asked (base64 only, with an optional data slice).
func (f *fakeRPC) view(a fixtureAccount, c accountConfig) fixtureAccount {
	if c.Encoding != "base64" {
		f.t.Errorf("account asked with encoding %q, want base64", c.Encoding)
	}
	if c.DataSlice != nil {
		data := a.bytes(f.t)
		lo := min(c.DataSlice.Offset, len(data))
		hi := min(lo+c.DataSlice.Length, len(data))
		a.Data = [2]string{base64.StdEncoding.EncodeToString(data[lo:hi]), "base64"}
	}
	return a
}

func (f *fakeRPC) result(method string, params []json.RawMessage) (any, *rpcErr) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch method {
	case "getBalance":
		return ctxValue(f.accounts[f.str(params[0])].Lamports), nil
	case "getMultipleAccounts":
		var keys []string
		_ = json.Unmarshal(params[0], &keys)
		if len(keys) > 100 {
			return nil, &rpcErr{Code: -32602, Message: "Too many inputs provided; max 100"}
		}
		c := f.config(params, 1)
		out := make([]any, len(keys))
		for i, k := range keys {
			if a, ok := f.accounts[k]; ok {
				out[i] = f.view(a, c)
			}
		}
		return ctxValue(out), nil
	case "getTokenAccountsByOwner":
		owner := sol.MustPublicKeyFromBase58(f.str(params[0]))
		filter := f.config(params, 1)
		c := f.config(params, 2)
		var out []any
		for _, k := range f.sortedKeys() {
			a := f.accounts[k]
			data := a.bytes(f.t)
			if a.Owner != filter.ProgramID || len(data) < accountSize || len(data) == multisigSize || !bytes.Equal(data[32:64], owner[:]) {
				continue
			}
			if len(data) > accountSize && data[accountSize] != accountTypeAc {
				continue
			}
			out = append(out, map[string]any{"pubkey": k, "account": f.view(a, c)})
		}
		return ctxValue(orEmpty(out)), nil
	case "getProgramAccounts":
		program := f.str(params[0])
		c := f.config(params, 1)
		var out []any
		for _, k := range f.sortedKeys() {
			a := f.accounts[k]
			if a.Owner != program || !matches(a.bytes(f.t), c) {
				continue
			}
			out = append(out, map[string]any{"pubkey": k, "account": f.view(a, c)})
		}
		return orEmpty(out), nil
	case "getTokenLargestAccounts":
		mint := sol.MustPublicKeyFromBase58(f.str(params[0]))
		type entry struct {
			address string
			amount  uint64
		}
		var es []entry
		decimals := -1
		for _, k := range f.sortedKeys() {
			a := f.accounts[k]
			data := a.bytes(f.t)
			switch {
			case a.Owner != TokenProgram && a.Owner != Token2022Program:
				continue
			case k == mint.String():
				decimals = int(data[44])
			case len(data) >= accountSize && len(data) != multisigSize && bytes.Equal(data[:32], mint[:]):
				es = append(es, entry{k, binary.LittleEndian.Uint64(data[64:72])})
			}
		}
		if decimals < 0 {
			return nil, &rpcErr{Code: -32602, Message: "Invalid param: not a Token mint"}
		}
		slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(b.amount, a.amount) })
		out := []any{}
		for _, e := range es[:min(20, len(es))] {
			out = append(out, map[string]any{"address": e.address, "amount": strconv.FormatUint(e.amount, 10), "decimals": decimals,
				"uiAmountString": units(e.amount, decimals)})
		}
		return ctxValue(out), nil
	case "getSignatureStatuses":
		var sigs []string
		_ = json.Unmarshal(params[0], &sigs)
		out := make([]json.RawMessage, len(sigs))
		for i, s := range sigs {
			if v, ok := f.byParam["getSignatureStatuses/"+s]; ok {
				out[i] = v
			} else {
				out[i] = json.RawMessage("null")
			}
		}
		return ctxValue(out), nil
	case "getTransaction":
		if v, ok := f.byParam["getTransaction/"+f.str(params[0])]; ok {
			return v, nil
		}
		return nil, nil
	case "simulateTransaction":
		return f.simulate(params)
	}
	rec, ok := f.recorded[method]
	if !ok {
		return nil, &rpcErr{Code: -32601, Message: "Method not found"}
	}
	if rec.Response.Error != nil {
		return nil, rec.Response.Error
	}
	return rec.Response.Result, nil
}

// simulate answers simulateTransaction with the recorded answer, checking the request and
// returning the fee payer's balance less the signature fee when accounts are asked for.
func (f *fakeRPC) simulate(params []json.RawMessage) (any, *rpcErr) {
	var cfg map[string]any
	_ = json.Unmarshal(params[1], &cfg)
	tx, err := sol.TransactionFromBase64(f.str(params[0]))
	if err != nil {
		return nil, &rpcErr{Code: -32602, Message: "invalid transaction: " + err.Error()}
	}
	f.simulated = append(f.simulated, tx)
	f.simParams = append(f.simParams, cfg)
	var rec struct {
		Context json.RawMessage `json:"context"`
		Value   map[string]any  `json:"value"`
	}
	_ = json.Unmarshal(f.recorded["simulateTransaction"].Response.Result, &rec)
	if accs, ok := cfg["accounts"].(map[string]any); ok {
		var out []any
		for _, a := range accs["addresses"].([]any) {
			acc, ok := f.accounts[a.(string)]
			if !ok {
				out = append(out, nil)
				continue
			}
			if a.(string) == tx.Message.AccountKeys[0].String() {
				acc.Lamports -= 5000
			}
			out = append(out, acc)
		}
		rec.Value["accounts"] = out
	}
	return map[string]any{"context": rec.Context, "value": rec.Value}, nil
}

func matches(data []byte, c accountConfig) bool {
	for _, flt := range c.Filters {
		if flt.DataSize != nil && len(data) != *flt.DataSize {
			return false
		}
		if m := flt.Memcmp; m != nil {
			want, err := base58.Decode(m.Bytes)
			if err != nil || len(data) < m.Offset+len(want) || !bytes.Equal(data[m.Offset:m.Offset+len(want)], want) {
				return false
			}
		}
	}
	return true
}

func (f *fakeRPC) sortedKeys() []string {
	keys := make([]string, 0, len(f.accounts))
	for k := range f.accounts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

// setAccount replaces or adds an account of the ledger.
func (f *fakeRPC) setAccount(key string, a fixtureAccount) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.accounts[key] = a
}

func (f *fakeRPC) setOverride(o func(method string, params []json.RawMessage) (any, *rpcErr, bool)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.override = o
}
