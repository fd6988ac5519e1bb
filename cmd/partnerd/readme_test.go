package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/partner-platform/partnerd/access"
	"github.com/partner-platform/partnerd/api"
)

// The README's commands are tested the way a newcomer uses them: TestREADME extracts the shell
// blocks of "Try it" and "The console", starts the built binary in local mode (the part `make run`
// plays in the README), and pastes every other command, unchanged but for the service's port, into
// one bash session with the binary on PATH as `partnerd`.

// readmeTimeout bounds the whole pasted session.
const readmeTimeout = 2 * time.Minute

// readmeCheck checks the output of the README commands containing match. cmd is the command as
// run, out its standard output.
type readmeCheck struct {
	match string
	check func(t *testing.T, cmd, out string)
}

// readmeStep is one pasted command and what it did.
type readmeStep struct {
	cmd         string
	code        int
	out, errout string
}

func TestREADME(t *testing.T) {
	t.Parallel()
	needTools(t, "bash", "curl", "jq")
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	tryIt, console := readmeBlock(t, readme, "Try it"), readmeBlock(t, readme, "The console")

	bin := partnerdBinary(t)
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "partner.db")
	e := &e2e{process: startServer(t, bin, baseEnv("PARTNER_DATABASE_URL="+dbURL)), bin: bin,
		client: &http.Client{Timeout: 10 * time.Second}}
	t.Cleanup(e.client.CloseIdleConnections)
	addr := strings.TrimPrefix(e.base, "http://")
	// The session's environment is a newcomer's after `make run`: the CLI finds the same database,
	// and PARTNER_ADDR stands for the default listen address the README's commands assume.
	e.env = baseEnv("PARTNER_DATABASE_URL="+dbURL, "PARTNER_ADDR="+addr,
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))

	// Every address in the block is one the devnet printed at start: an account, token or pool.
	printed := strings.ToLower(e.stderr.String())
	addrs := regexp.MustCompile(`0x[0-9a-fA-F]{40}`).FindAllString(tryIt, -1)
	slices.Sort(addrs)
	for _, a := range slices.Compact(addrs) {
		if !strings.Contains(printed, strings.ToLower(a)) {
			t.Errorf("README's Try it uses %s, which is no devnet account, token or pool the service printed at start", a)
		}
	}

	// The session: the README's commands but `make run` (the test started the service) and the
	// partnerd function (the built binary is on PATH as partnerd), on the test's port, with the
	// test's own steps (false in fromREADME): a wait before trending and, last, printing $KEY.
	var cmds []string
	var fromREADME []bool
	add := func(readme bool, c ...string) {
		cmds = append(cmds, c...)
		for range c {
			fromREADME = append(fromREADME, readme)
		}
	}
	toServer := strings.NewReplacer("localhost:8080", addr, "127.0.0.1:8080", addr)
	tryCmds := shellCommands(tryIt)
	if len(tryCmds) == 0 || !strings.HasPrefix(tryCmds[0], "make run") {
		t.Fatalf("README's Try it does not start with `make run`:\n%s", tryIt)
	}
	for _, c := range append(tryCmds[1:], shellCommands(console)...) {
		if strings.HasPrefix(c, "partnerd()") {
			continue
		}
		if strings.Contains(c, "/v1/markets/trending") {
			// As the README says, trending fills once the devnet's trader has swapped: a person
			// pasting takes those seconds, the test waits for them (at most 30 s).
			add(false, `for i in $(seq 60); do curl -s -H "X-API-Key: $KEY" "`+addr+`/v1/markets/trending?chain=base" | grep -q '"pools":\[{' && break; sleep 0.5; done`)
		}
		add(true, toServer.Replace(c))
	}
	add(false, `printf %s "$KEY"`) // the key the session holds
	steps := e.paste(cmds)

	used := map[string]bool{}
	checks := readmeChecks(e)
	for i, s := range steps {
		if !fromREADME[i] {
			continue
		}
		if s.code != 0 || s.errout != "" {
			t.Errorf("README command failed (exit %d):\n%s\nstderr: %s\nstdout: %s", s.code, s.cmd, s.errout, s.out)
			continue
		}
		c := slices.IndexFunc(checks, func(c readmeCheck) bool { return strings.Contains(s.cmd, c.match) })
		if c < 0 {
			t.Errorf("README command has no check in readme_test.go:\n%s", s.cmd)
			continue
		}
		used[checks[c].match] = true
		checks[c].check(t, s.cmd, s.out)
	}
	for _, c := range checks {
		if !used[c.match] {
			t.Errorf("README's blocks have no command containing %q any more", c.match)
		}
	}

	// The README's consumer can make the largest batch call: 24 owners, cost 240.
	key := steps[len(steps)-1].out
	if _, err := access.ParseKey(key); err != nil {
		e.fatalf("the session's $KEY %q is not a key: %v", key, err)
	}
	owners := make([]string, 24)
	for i := range owners {
		owners[i] = fmt.Sprintf("base:0x%040x", 0x1000+i)
	}
	r := e.call(http.MethodGet, "/v1/portfolio/holdings?owners="+strings.Join(owners, ","), key, nil)
	if r.status != http.StatusOK {
		e.fatalf("the README's consumer cannot make a batch call of 24 owners (cost 240): %d %s", r.status, r.raw)
	}
	if n := len(as[api.HoldingsBatchResponse](t, r.raw).Results); n != 24 {
		t.Errorf("batch of 24 owners: %d results", n)
	}
}

// readmeChecks are the checks of the README's commands, by a part of the command.
func readmeChecks(e *e2e) []readmeCheck {
	ok := func(t *testing.T, cmd, out string) response {
		t.Helper()
		r := curlResponse(t, cmd, out)
		if r.status != 0 && r.status != http.StatusOK || r.body["ok"] != true {
			t.Errorf("%s\nanswered %d %s, want 200 and ok true", cmd, r.status, r.raw)
		}
		return r
	}
	return []readmeCheck{
		{"/readyz", func(t *testing.T, cmd, out string) {}},
		{"consumer create", func(t *testing.T, cmd, out string) {
			if c := as[access.Consumer](t, oneObject(t, cmd, out)); c.ID != 1 || !c.AccessEnabled {
				t.Errorf("%s\nprinted consumer %d (access %v); the README's next commands use consumer 1 with access on", cmd, c.ID, c.AccessEnabled)
			}
		}},
		{"key create", func(t *testing.T, cmd, out string) {}}, // $KEY is checked at the end
		{"/v1/chains", func(t *testing.T, cmd, out string) {
			chains := as[api.ChainsListResponse](t, ok(t, cmd, out).raw).Chains
			i := slices.IndexFunc(chains, func(c api.ChainInfo) bool { return c.ID == "base" })
			if i < 0 || !chains[i].Enabled || chains[i].Network != "devnet" || len(chains[i].Operations) == 0 {
				t.Errorf("%s\nanswered %s; want base enabled, a devnet, with its operations", cmd, out)
			}
		}},
		{"/v1/markets/trending", func(t *testing.T, cmd, out string) {
			r := ok(t, cmd, out)
			if r.header.Get("X-RateLimit-Limit") == "" || r.header.Get("X-Request-Id") == "" {
				t.Errorf("%s\nshows no X-RateLimit-Limit or X-Request-Id header:\n%s", cmd, out)
			}
			if len(as[api.TrendingResponse](t, r.raw).Pools) == 0 {
				t.Errorf("%s\nlists no pools: %s", cmd, r.raw)
			}
		}},
		{"/v1/tokens/search", func(t *testing.T, cmd, out string) {
			if len(as[api.TokenSearchResponse](t, ok(t, cmd, out).raw).Results) == 0 {
				t.Errorf("%s\nfinds nothing: %s", cmd, out)
			}
		}},
		{"/price", func(t *testing.T, cmd, out string) {
			if p := as[api.TokenPrice](t, ok(t, cmd, out).raw); p.PriceUsd == "" || p.Pool == "" {
				t.Errorf("%s\nhas no price from a pool: %s", cmd, out)
			}
		}},
		{"/v1/portfolio/holdings?owners=", func(t *testing.T, cmd, out string) {
			res := as[api.HoldingsBatchResponse](t, ok(t, cmd, out).raw).Results
			if len(res) != strings.Count(cmd, "base:0x") {
				t.Errorf("%s\nanswered %d owners: %s", cmd, len(res), out)
			}
			for _, o := range res {
				if o.Result == nil || !holdsTokens(*o.Result) {
					t.Errorf("%s\nowner %s holds no token: %+v", cmd, o.Ref, o)
				}
			}
		}},
		{"/holdings?chain=", func(t *testing.T, cmd, out string) {
			if !holdsTokens(as[api.HoldingsResult](t, ok(t, cmd, out).raw)) {
				t.Errorf("%s\nholds no token (is the owner a devnet user account?): %s", cmd, out)
			}
		}},
		{"/v1/portfolio/58BAP9tWqD3nWfvzfa83a9vnNzjp8erG8suDCEX6qvJ3/holdings", func(t *testing.T, cmd, out string) {
			if h := as[api.HoldingsResult](t, ok(t, cmd, out).raw); h.Chain != "solana" || !holdsTokens(h) {
				t.Errorf("%s\nanswered %s; want the local validator's holder-0 on solana, the default chain, holding tokens", cmd, out)
			}
		}},
		{"/v1/tokens/DvxQQQ3XEuo1XMNbsnsxYt7mrBb9Totn6yPY3NLfX84N", func(t *testing.T, cmd, out string) {
			if r := ok(t, cmd, out); !strings.Contains(string(r.raw), `"symbol":"EMB"`) {
				t.Errorf("%s\nanswered %s; want the Token-2022 mint EMB", cmd, out)
			}
		}},
		{"/v1/quotes/swap?", func(t *testing.T, cmd, out string) {
			if q := as[api.EVMSwapQuoteResponse](t, ok(t, cmd, out).raw); q.OutAmount == "" || q.OutAmount == "0" || len(q.Route) == 0 {
				t.Errorf("%s\nquoted nothing: %s", cmd, out)
			}
		}},
		{"/v1/build/", func(t *testing.T, cmd, out string) {
			b := as[api.BuildResponse](t, ok(t, cmd, out).raw)
			if len(b.Transactions) != 1 || b.Transactions[0].EVM == nil || b.Transactions[0].EVM.Value != "1500000000000000000" || b.ConfirmationToken == "" {
				t.Errorf("%s\nbuilt %s; the README says an unsigned transfer of 1.5 ETH", cmd, out)
			}
		}},
		{"operator create", func(t *testing.T, cmd, out string) {
			if u := as[access.User](t, oneObject(t, cmd, out)); u.Email != "ops@example.com" {
				t.Errorf("%s\nprinted %s", cmd, out)
			}
		}},
		{"user create", func(t *testing.T, cmd, out string) {
			link := as[userLinkOut](t, oneObject(t, cmd, out))
			token(t, link, e.base)
			resp, err := e.client.Get(link.SetPasswordURL)
			if err != nil {
				t.Fatalf("open the set-password link: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("the set-password link %s answers %d, want 200", link.SetPasswordURL, resp.StatusCode)
			}
		}},
	}
}

// holdsTokens reports whether an owner holds a token besides the native coin.
func holdsTokens(h api.HoldingsResult) bool {
	for _, x := range h.Holdings {
		if !x.Native && x.Amount != "" && x.Amount != "0" {
			return true
		}
	}
	return false
}

// paste runs cmds in one bash session (variables carry over, as in a terminal) in an empty
// directory, and returns each command's exit code, standard output and standard error.
func (e *e2e) paste(cmds []string) []readmeStep {
	e.t.Helper()
	const mark = "@@readme-step"
	var script strings.Builder
	script.WriteString("set -o pipefail\n") // a failing partnerd before `| jq` fails its command
	for _, c := range cmds {
		fmt.Fprintf(&script, "%s\nprintf '\\n%s %%d\\n' $?; printf '\\n%s\\n' >&2\n", c, mark, mark)
	}
	dir := e.t.TempDir()
	path := filepath.Join(dir, "readme.sh")
	if err := os.WriteFile(path, []byte(script.String()), 0o600); err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), readmeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", path)
	cmd.Dir, cmd.Env, cmd.WaitDelay = dir, e.env, 5*time.Second
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		e.fatalf("the README's commands did not finish within %v: %v\nstdout:\n%s\nstderr:\n%s", readmeTimeout, err, stdout.String(), stderr.String())
	}
	outs := strings.Split(stdout.String(), "\n"+mark+" ")
	errs := strings.Split(stderr.String(), "\n"+mark+"\n")
	if len(outs) != len(cmds)+1 || len(errs) != len(cmds)+1 {
		e.fatalf("the session ran %d of %d commands\nstdout:\n%s\nstderr:\n%s", len(outs)-1, len(cmds), stdout.String(), stderr.String())
	}
	steps := make([]readmeStep, len(cmds))
	for i := range steps {
		steps[i] = readmeStep{cmd: cmds[i], out: outs[i], errout: errs[i]}
		if i > 0 { // each output after the first starts with the code of the command before it
			code, out, _ := strings.Cut(outs[i], "\n")
			steps[i-1].code, _ = strconv.Atoi(code)
			steps[i].out = out
		}
	}
	code, _, _ := strings.Cut(outs[len(cmds)], "\n")
	steps[len(cmds)-1].code, _ = strconv.Atoi(code)
	return steps
}

// curlResponse parses what curl printed: the body, after the status line and headers with -i.
func curlResponse(t *testing.T, cmd, out string) response {
	t.Helper()
	r := response{raw: []byte(out)}
	if strings.HasPrefix(out, "HTTP/") {
		head, body, found := strings.Cut(out, "\r\n\r\n")
		tp := textproto.NewReader(bufio.NewReader(strings.NewReader(head + "\r\n\r\n")))
		status, err := tp.ReadLine()
		var h textproto.MIMEHeader
		if err == nil {
			h, err = tp.ReadMIMEHeader()
		}
		r.header = http.Header(h)
		if _, code, _ := strings.Cut(status, " "); err != nil || !found {
			t.Fatalf("%s\nprinted headers curl -i would not: %v\n%s", cmd, err, out)
		} else {
			r.status, _ = strconv.Atoi(code[:min(3, len(code))])
		}
		r.raw = []byte(body)
	}
	r.body = as[map[string]any](t, r.raw)
	return r
}

// readmeBlock returns the first ```sh block of the README's section "## heading".
func readmeBlock(t *testing.T, readme, heading string) string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## "+heading+"\n")
	if ok {
		section, _, _ = strings.Cut(section, "\n## ")
		_, section, ok = strings.Cut(section, "```sh\n")
	}
	block, _, closed := strings.Cut(section, "\n```")
	if !ok || !closed {
		t.Fatalf("README.md has no ```sh block in its section %q", heading)
	}
	return block
}

// shellCommands splits a block into its commands, a command continued with a backslash kept
// whole; blank lines and comment lines are dropped.
func shellCommands(block string) []string {
	var cmds []string
	var cur strings.Builder
	for line := range strings.Lines(block) {
		if cur.Len() == 0 && (strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#")) {
			continue
		}
		cur.WriteString(line)
		if !strings.HasSuffix(strings.TrimRight(line, "\n"), `\`) {
			cmds = append(cmds, strings.TrimRight(cur.String(), "\n"))
			cur.Reset()
		}
	}
	if cur.Len() > 0 {
		cmds = append(cmds, strings.TrimRight(cur.String(), "\n"))
	}
	return cmds
}

// needTools skips the test when a program is not on PATH (fails under PARTNER_TEST_REQUIRE_ALL=1).
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			msg := fmt.Sprintf("this test needs %s on PATH", n)
			if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
}
