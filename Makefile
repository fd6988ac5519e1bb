# partnerd: the partner API platform. `make run` and `make test` are all a new machine needs.
GO ?= go
PKGS := ./...
# GENERATED is what make generate and make contracts write, and check-generated holds against the commit.
GENERATED := ent console chain/devnet/bindings chain/evm/abi cmd/partnerd/internal/apiclient chain/solana/program/raydium_cpmm.so

.PHONY: run build test lint generate contracts vendor program check-generated bench bench-log migrate-diff soak clean

## run: build and start the service on the embedded default (SQLite under ./data, in-process stores)
run:
	$(GO) run ./cmd/partnerd serve

## build: the binary into ./bin/partnerd
build:
	$(GO) build -o bin/partnerd ./cmd/partnerd

## test: every test, with the race detector (PostgreSQL tests skip without a server unless PARTNER_TEST_REQUIRE_ALL=1);
## installs the pinned npm packages first (needs node and npm): anvil (chain/devnet/anvil, the second EVM), LiteSVM for the
## local Solana validator (chain/solana/validator), the OpenAPI linters (api/lint: Redocly CLI and Spectral, run by
## api.TestOpenAPILint) and @solana/web3.js for the partner example examples/solana-transfer (run by TestExampleSolanaTransfer);
## and builds the OpenAPI scorer vacuum (api-lint-vacuum). It builds the binary first, so the end-to-end tests' own build
## of it (profile-guided, several minutes without the build cache) comes from the cache, outside their timeout; the test
## binaries themselves are built without the profile (-pgo=off), which would compile every dependency once more
test: chain/devnet/anvil/node_modules chain/solana/validator/node_modules api/lint/node_modules examples/solana-transfer/node_modules api-lint-vacuum
	$(GO) build -o /dev/null ./cmd/partnerd
	$(GO) test -pgo=off -race -count=1 -timeout 20m $(PKGS)

chain/devnet/anvil/node_modules: chain/devnet/anvil/package.json chain/devnet/anvil/package-lock.json
	npm ci --prefix chain/devnet/anvil --no-audit --no-fund
	@touch $@

chain/solana/validator/node_modules: chain/solana/validator/package.json chain/solana/validator/package-lock.json
	npm ci --prefix chain/solana/validator --no-audit --no-fund
	@touch $@

api/lint/node_modules: api/lint/package.json api/lint/package-lock.json
	npm ci --prefix api/lint --no-audit --no-fund --ignore-scripts
	@touch $@

examples/solana-transfer/node_modules: examples/solana-transfer/package.json examples/solana-transfer/package-lock.json
	npm ci --prefix examples/solana-transfer --no-audit --no-fund --ignore-scripts
	@touch $@

## api-lint-vacuum: download vacuum, pinned as a tool in its own module api/lint/vacuum (not in the main go.mod), from the Go
## module proxy and build it into Go's cache, where api.TestOpenAPILint runs it with go tool, offline
.PHONY: api-lint-vacuum
api-lint-vacuum:
	$(GO) -C api/lint/vacuum tool vacuum version --no-update-check

## lint: vet, formatting and staticcheck
lint:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) tool staticcheck $(PKGS)

## generate: regenerate the ent client from ent/schema, the console's templ components, and the Go client of the API
## (cmd/partnerd/internal/apiclient: the served OpenAPI document and oapi-codegen's client of it, used by TestGeneratedClient)
generate:
	$(GO) generate ./ent
	$(GO) tool templ generate -path console
	$(GO) generate ./cmd/partnerd/internal/apiclient

## contracts: compile the devnet's Solidity (chain/devnet/contracts) with the pinned solc npm package into
## chain/devnet/artifacts (build.mjs, which also copies the official V2 artifacts from the pinned packages); extract
## the official Uniswap V3 artifacts (v3-core, v3-periphery, swap-router-contracts, v3-staker) from their pinned
## tarballs with npm pack, each checked against its pinned and the registry's dist.integrity, never installed
## (v3.mjs); regenerate the abigen v2 bindings in chain/devnet/bindings and chain/evm's copy of the AuditProbe
## artifact (chain/evm/abi/audit_probe.json) (needs node, npm and tar)
contracts:
	npm ci --prefix chain/devnet/contracts --no-audit --no-fund
	node chain/devnet/contracts/build.mjs
	node chain/devnet/contracts/v3.mjs
	$(GO) generate ./chain/devnet/bindings
	$(GO) generate ./chain/evm

## vendor: copy the docs page's renderer (Stoplight Elements' web component, pinned in web/elements/package-lock.json)
## into web/static/elements: fetches that one tarball with npm pack, checks the lockfile's integrity, records each
## file's SHA-256 in web/elements/vendored.json (web's TestVendoredElements checks the copy against it; needs npm)
vendor:
	$(GO) run ./web/elements/vendor.go

## program: rebuild chain/solana/program/raydium_cpmm.so, our Raydium-CPMM-compatible program for the local Solana
## validator, from its C sources (chain/solana/program/src) with Debian's clang (-target bpfel -mcpu=v1) and our linker
## (chain/solana/program/link); the build is deterministic (needs clang: apt-get install clang)
program:
	$(GO) run ./chain/solana/program/cmd/cpmmbuild

## check-generated: regenerate everything and fail if the committed code or migrations drifted
## (the devnet bindings and chain/evm's AuditProbe copy are regenerated from the committed artifacts: no node needed;
## the Solana program is rebuilt from its C sources: needs clang)
check-generated: generate program
	$(GO) generate ./chain/devnet/bindings
	$(GO) generate ./chain/evm
	@if [ -n "$$(git status --porcelain -- $(GENERATED))" ]; then echo "generated code is not current; run make generate (or make contracts) and commit:"; git status --porcelain -- $(GENERATED); exit 1; fi
	$(GO) run ./migrations/diff.go -check

## migrate-diff NAME=...: write the next versioned migration for both dialects from the ent schema
migrate-diff:
	@test -n "$(NAME)" || (echo "usage: make migrate-diff NAME=add_something"; exit 1)
	$(GO) run ./migrations/diff.go -name $(NAME)

## bench: policy decision, key verification, a cached price read through the full pipeline against the bare handler; then the
## console's 30-day usage page for a consumer with 1,000,000 recorded calls (seeding takes ~20 s); then
## the market index's ingest rate of Uniswap V2 and V3 swap logs on SQLite and PostgreSQL; then the market snapshot's
## refresh (from scratch, idle, after a block) at up to 10,000 pools; then an EVM swap quote against the cached price read,
## and the quote's latency at 25, 45 and 85 candidate pools
bench:
	$(GO) test -run '^$$' -bench 'BenchmarkDecide$$|BenchmarkVerifyWarm$$|BenchmarkPipeline$$' -benchmem -benchtime 2s ./policy/ ./access/ ./api/
	$(GO) test -run '^$$' -bench 'BenchmarkUsagePage1M$$' -benchtime 20x ./console/
	$(GO) test -run '^$$' -bench 'BenchmarkIngest' -benchtime 50x ./index/
	$(GO) test -run '^$$' -bench 'BenchmarkRefresh' -benchmem -benchtime 5x ./market/
	$(GO) test -run '^$$' -bench 'BenchmarkQuote$$' -benchtime 2000x ./api/
	$(GO) test -run '^$$' -bench 'BenchmarkQuoteCandidates' -benchtime 1000x ./api/

## bench-log: the request log of one consumer with 50,000,000 calls (seeded through the page writer, a few minutes, about
## 1 GB; STORE=sqlite or postgres, CALLS to change the count): each filter's first page, an older page, the lookup by
## request id (the call's page), the CSV export of 1,000,000 calls, and the bytes a call takes on disk; then the usage
## writer's CPU and disk bytes per call on both stores, after 1,000,000 calls (synthetic and realistic). Not in make test.
STORE ?= sqlite
CALLS ?= 50000000
.PHONY: bench-log
bench-log:
	PARTNER_BENCH_LOG50M=$(STORE) PARTNER_BENCH_LOG50M_CALLS=$(CALLS) $(GO) test -run '^$$' -bench 'BenchmarkLog50M' -benchtime 20x -timeout 60m -v ./console/ | grep -v '^=== RUN'
	$(GO) test -run '^$$' -bench 'BenchmarkUsageWriter/.*/(batch|traffic)$$' -benchtime 31x ./metering/

## loadtest: partnerd's whole pipeline (an authenticated cached price read) against a bare net/http handler, nginx and
## HAProxy as classic gateways (key map, rate limit, keepalive proxy to the bare handler) and the same read on Huma and
## chi with no pipeline, wrk -t1 -c32 -d10s each, in turn, three rounds in one run (needs wrk, nginx and haproxy:
## installs the Debian packages if missing); prints each one's median req/s and the ratios of the medians. Not in make test.
.PHONY: loadtest
loadtest:
	scripts/loadtest/run.sh

## pgo: retake cmd/partnerd/default.pgo, the CPU profile of make loadtest's workload that go build optimizes the binary
## with (profile-guided optimization); commit it when the pipeline's code changed. Not in make test.
.PHONY: pgo
pgo:
	scripts/loadtest/profile.sh

## loadtest-solana-quote: Solana swap quotes (one getMultipleAccounts each, CPMM's exact math) through the binary in local
## mode against its cached price read, wrk in one run; prints req/s, latencies and the ratio. Not part of make test.
.PHONY: loadtest-solana-quote
loadtest-solana-quote:
	scripts/loadtest/solana-quote.sh

## soak: three minutes of 10,000 calls/s through the usage recorder into SQLite and PostgreSQL: every call recorded; then
## two minutes of two replicas (real binaries on PostgreSQL and Redis, loopback) under a cached price read and a holdings
## read: only 200 and 429, every answered call in the usage pages, RSS and goroutines flat after a 20 s warm-up, a table of
## samples every 5 s (not in make test)
soak:
	$(GO) test ./metering/ -run UsageSoakPaced -soak 3m -timeout 20m -count=1 -v
	PARTNER_SOAK=2m $(GO) test ./cmd/partnerd/ -run '^TestSoakReplicas$$' -timeout 10m -count=1 -v

clean:
	rm -rf bin data
