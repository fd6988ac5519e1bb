package solana

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bin "github.com/gagliardetto/binary"
	sol "github.com/gagliardetto/solana-go"
	computebudget "github.com/gagliardetto/solana-go/programs/compute-budget"
	"github.com/gagliardetto/solana-go/programs/token"
)

// The fixtures: testdata/accounts.json (accounts in Solana's JSON shape) and testdata/rpc/*.json
// (recorded request/response pairs), written by TestFixtures with -update from the definitions
// below and checked current by it otherwise. Account data is encoded with solana-go's own SPL
// Token encoders (token.Mint, token.Account) for the base layouts and, for what solana-go v1.24.0
// cannot encode from an importable package (Token-2022 TLV extensions, token metadata, Metaplex
// metadata), by the small encoders below that follow the programs' documented layouts byte by
// byte. See testdata/README.md for what is real mainnet data and what is illustrative.

var update = flag.Bool("update", false, "rewrite the fixtures under testdata from fixtures_test.go")

// testKey is a deterministic public key for a fixture name.
func testKey(name string) sol.PublicKey {
	h := sha256.Sum256([]byte("partnerd solana fixture " + name))
	return sol.PublicKeyFromBytes(h[:])
}

func testSig(name string) sol.Signature {
	h := sha512.Sum512([]byte("partnerd solana fixture signature " + name))
	return sol.SignatureFromBytes(h[:])
}

// Mainnet addresses.
var (
	usdcMint            = sol.MustPublicKeyFromBase58("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
	usdcMintAuthority   = sol.MustPublicKeyFromBase58("BJE5MMbqXjVwjAF7oxwPYXnTXDyspzZyt4vwenNw5ruG")
	usdcFreezeAuthority = sol.MustPublicKeyFromBase58("7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar")
	pyusdMint           = sol.MustPublicKeyFromBase58("2b1kV6DkPAnxd5ixfnxCpjxmKwqjjaYmCZfHsFu24GXo")
	wsolMint            = sol.MustPublicKeyFromBase58(NativeMint)
)

// Illustrative addresses.
var (
	feeMint       = testKey("mint FEET: Token-2022 with a 1.5% transfer fee")
	hookMint      = testKey("mint HOOK: Token-2022 with a transfer hook")
	soulboundMint = testKey("mint SOUL: Token-2022 non-transferable")
	frozenDefMint = testKey("mint COLD: Token-2022 default state frozen")
	pausedMint    = testKey("mint PAUSE: Token-2022 interest-bearing, paused")
	sender        = testKey("wallet sender")
	recipient     = testKey("wallet recipient")
	poor          = testKey("wallet poor")
	treasury      = testKey("wallet FEET treasury")
	lookupTable   = testKey("address lookup table")
	owners        = func() []sol.PublicKey {
		out := make([]sol.PublicKey, 24)
		for i := range out {
			out[i] = testKey(fmt.Sprintf("wallet owner %02d", i))
		}
		return out
	}()
)

// Recorded figures.
const (
	fixtureEpoch       = 723
	fixtureBlockhash   = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
	fixtureLastValid   = 290_612_495
	fixtureUnits       = 31_245 // simulateTransaction's unitsConsumed
	fixtureRentExempt0 = 890_880
	fixtureSigFee      = 5_000
)

// Signatures of the recorded statuses and transactions.
var (
	sigFinal     = testSig("finalized v0 USDC transfer")
	sigConfirmed = testSig("confirmed")
	sigProcessed = testSig("processed")
	sigFailed    = testSig("failed legacy transfer")
	sigUnknown   = testSig("never sent")
)

func u64p(v uint64) *uint64 { return &v }

func encodeBin(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := bin.NewBinEncoder(&buf).Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ext is one Token-2022 TLV entry: type u16 LE, length u16 LE, value.
func ext(typ uint16, value ...[]byte) []byte {
	v := bytes.Join(value, nil)
	out := binary.LittleEndian.AppendUint16(nil, typ)
	out = binary.LittleEndian.AppendUint16(out, uint16(len(v)))
	return append(out, v...)
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func key(k sol.PublicKey) []byte {
	return slices.Clone(k[:])
}

// borsh is a borsh String: u32 LE length, then the bytes.
func borsh(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
}

// padded is a borsh String NUL-padded to n bytes, as Metaplex stores name, symbol and uri.
func padded(s string, n int) []byte {
	return borsh(s + string(make([]byte, n-len(s))))
}

// withExtensions turns a base mint (82 bytes) or account (165 bytes) into Token-2022 extended
// data: zero padding to 165 bytes, the account type byte, the TLV entries.
func withExtensions(base []byte, accountType byte, exts ...[]byte) []byte {
	out := append(slices.Clone(base), make([]byte, accountSize-len(base))...)
	out = append(out, accountType)
	for _, e := range exts {
		out = append(out, e...)
	}
	if len(out) == multisigSize {
		out = append(out, 0, 0)
	}
	return out
}

func feeSchedule(epoch, maxFee uint64, bps uint16) []byte {
	return bytes.Join([][]byte{le64(epoch), le64(maxFee), le16(bps)}, nil)
}

// tokenMetadataExt is the TokenMetadata extension value.
func tokenMetadataExt(update, mint sol.PublicKey, name, symbol, uri string, additional ...[2]string) []byte {
	v := bytes.Join([][]byte{key(update), key(mint), borsh(name), borsh(symbol), borsh(uri)}, nil)
	v = binary.LittleEndian.AppendUint32(v, uint32(len(additional)))
	for _, kv := range additional {
		v = append(append(v, borsh(kv[0])...), borsh(kv[1])...)
	}
	return v
}

// metaplexAccount is a Metaplex Token Metadata account (MetadataV1) as the program sizes it.
func metaplexAccount(update, mint sol.PublicKey, name, symbol, uri string, mutable bool) []byte {
	b := []byte{4}
	b = append(b, key(update)...)
	b = append(b, key(mint)...)
	b = append(b, padded(name, 32)...)
	b = append(b, padded(symbol, 10)...)
	b = append(b, padded(uri, 200)...)
	b = append(b, le16(0)...) // seller_fee_basis_points
	b = append(b, 0)          // creators: None
	b = append(b, 0)          // primary_sale_happened
	if mutable {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = append(b, 1, 254) // edition_nonce: Some(254)
	b = append(b, 1, 2)   // token_standard: Some(Fungible)
	b = append(b, 0, 0, 0, 0)
	return append(b, make([]byte, 679-len(b))...)
}

// fixtureWorld is the ledger the fixtures hold.
type fixtureWorld struct {
	t        testing.TB
	accounts map[sol.PublicKey]fixtureAccount
}

func (w *fixtureWorld) put(k sol.PublicKey, owner sol.PublicKey, lamports uint64, data []byte) {
	if _, dup := w.accounts[k]; dup {
		w.t.Fatalf("fixture account %s given twice", k)
	}
	w.accounts[k] = fixtureAccount{Data: [2]string{base64.StdEncoding.EncodeToString(data), "base64"}, Lamports: lamports,
		Owner: owner.String(), RentEpoch: 18446744073709551615, Space: uint64(len(data))}
}

func rentFor(n int) uint64 { return uint64(128+n) * fixtureRentExempt0 / 128 }

func (w *fixtureWorld) wallet(k sol.PublicKey, lamports uint64) {
	w.put(k, sol.SystemProgramID, lamports, nil)
}

func (w *fixtureWorld) splMint(k sol.PublicKey, m token.Mint) {
	data := encodeBin(w.t, m)
	w.put(k, sol.TokenProgramID, rentFor(len(data)), data)
}

func (w *fixtureWorld) t22Mint(k sol.PublicKey, m token.Mint, exts ...[]byte) {
	data := withExtensions(encodeBin(w.t, m), accountTypeMt, exts...)
	w.put(k, sol.Token2022ProgramID, rentFor(len(data)), data)
}

// tokenAccount puts a token account at k (the owner's associated one when k is zero).
func (w *fixtureWorld) tokenAccount(k sol.PublicKey, program sol.PublicKey, a token.Account, exts ...[]byte) sol.PublicKey {
	if k.IsZero() {
		k = ata(a.Owner, a.Mint, program)
	}
	data := encodeBin(w.t, a)
	if program == sol.Token2022ProgramID {
		data = withExtensions(data, accountTypeAc, exts...)
	}
	lamports := rentFor(len(data))
	if a.IsNative != nil {
		lamports = *a.IsNative + a.Amount
	}
	w.put(k, program, lamports, data)
	return k
}

// Fixture balances the tests check.
const (
	senderLamports    = 2_500_000_000
	senderUSDC        = 1_500_250_000
	senderPYUSD       = 200_000_000
	senderFEET        = 1_000_000_000
	recipientUSDC     = 500_000
	owner0ExtraUSDC   = 7_000_000
	owner1WrappedSOL  = 1_500_000_000
	owner3Withheld    = 1_234
	treasuryFEET      = 2_320_000_000
	feetSupply        = 5_000_000_000
	usdcSupply        = 8_834_211_509_654_321
	pyusdSupply       = 620_004_321_000_000
	ownerLamportsStep = 1_000_000_007
)

var owner0Extra = testKey("owner 00 second USDC account")

func ownerUSDC(i int) uint64 {
	if i == 2 {
		return 0
	}
	return uint64(i+1) * 2_500_000
}

func newFixtureWorld(t testing.TB) *fixtureWorld {
	w := &fixtureWorld{t: t, accounts: map[sol.PublicKey]fixtureAccount{}}
	t22 := sol.Token2022ProgramID
	spl := sol.TokenProgramID

	// Mints.
	w.splMint(usdcMint, token.Mint{MintAuthority: &usdcMintAuthority, Supply: usdcSupply, Decimals: 6, IsInitialized: true, FreezeAuthority: &usdcFreezeAuthority})
	w.put(metadataPDA(usdcMint), metadataProgramID, 5_616_720,
		metaplexAccount(sol.MustPublicKeyFromBase58("2wmVCSfPxGPjrnMMn7rchp4uaeoTqN39mXFC2zhPdri9"), usdcMint, "USD Coin", "USDC", "", true))
	w.splMint(wsolMint, token.Mint{Decimals: 9, IsInitialized: true})
	pyAuth := testKey("PYUSD authority")
	pyMintAuth, pyFreeze := testKey("PYUSD mint authority"), testKey("PYUSD freeze authority")
	w.t22Mint(pyusdMint, token.Mint{MintAuthority: &pyMintAuth, Supply: pyusdSupply, Decimals: 6, IsInitialized: true, FreezeAuthority: &pyFreeze},
		ext(extMintCloseAuthority, key(pyAuth)),
		ext(extPermanentDelegate, key(testKey("PYUSD permanent delegate"))),
		ext(extTransferFeeConfig, key(pyAuth), key(pyAuth), le64(0), feeSchedule(605, 0, 0), feeSchedule(605, 0, 0)),
		ext(extConfidentialMint, key(pyAuth), []byte{0}, make([]byte, 32)),
		ext(extConfidentialFeeConfig, key(pyAuth), make([]byte, 32), []byte{1}, make([]byte, 64)),
		ext(extTransferHook, key(pyAuth), make([]byte, 32)),
		ext(extMetadataPointer, key(pyAuth), key(pyusdMint)),
		ext(extTokenMetadata, tokenMetadataExt(pyAuth, pyusdMint, "PayPal USD", "PYUSD",
			"https://token-metadata.paxos.com/pyusd_metadata/prod/solana/pyusd_metadata.json")),
	)
	feeAuth := testKey("FEET authority")
	w.t22Mint(feeMint, token.Mint{MintAuthority: &feeAuth, Supply: feetSupply, Decimals: 6, IsInitialized: true},
		ext(extTransferFeeConfig, key(feeAuth), key(feeAuth), le64(98_765), feeSchedule(0, 1_000_000_000, 100), feeSchedule(700, 5_000_000, 150)),
		ext(extMetadataPointer, key(feeAuth), key(feeMint)),
		ext(extTokenMetadata, tokenMetadataExt(feeAuth, feeMint, "Fee Test Token", "FEET", "https://example.invalid/feet.json", [2]string{"issuer", "partnerd tests"})),
	)
	hookAuth := testKey("HOOK authority")
	w.t22Mint(hookMint, token.Mint{MintAuthority: &hookAuth, Supply: 1_000_000_000, Decimals: 6, IsInitialized: true},
		ext(extTransferHook, key(hookAuth), key(testKey("hook program"))))
	w.t22Mint(soulboundMint, token.Mint{MintAuthority: &hookAuth, Supply: 10, Decimals: 0, IsInitialized: true},
		ext(extNonTransferable))
	coldFreeze := testKey("COLD freeze authority")
	w.t22Mint(frozenDefMint, token.Mint{Supply: 100_000, Decimals: 2, IsInitialized: true, FreezeAuthority: &coldFreeze},
		ext(extDefaultAccountState, []byte{2}))
	pauseAuth := testKey("PAUSE authority")
	w.t22Mint(pausedMint, token.Mint{MintAuthority: &pauseAuth, Supply: 5_000_000, Decimals: 6, IsInitialized: true},
		ext(extInterestBearing, key(pauseAuth), le64(1_700_000_000), le16(350), le64(1_720_000_000), le16(425)),
		ext(extPausable, key(pauseAuth), []byte{1}),
		ext(extScaledUIAmount, make([]byte, 56)),
	)

	// Wallets.
	w.wallet(sender, senderLamports)
	w.wallet(recipient, 1_000_000)
	w.wallet(poor, 3_000)
	w.wallet(treasury, 10_000_000)
	for i, o := range owners {
		w.wallet(o, uint64(i)*ownerLamportsStep+1)
	}

	// Token accounts.
	w.tokenAccount(sol.PublicKey{}, spl, token.Account{Mint: usdcMint, Owner: sender, Amount: senderUSDC, State: token.Initialized})
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: pyusdMint, Owner: sender, Amount: senderPYUSD, State: token.Initialized},
		ext(extTransferFeeAmount, le64(0)), ext(extImmutableOwner), ext(extTransferHookAccount, []byte{0}))
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: feeMint, Owner: sender, Amount: senderFEET, State: token.Initialized},
		ext(extImmutableOwner), ext(extTransferFeeAmount, le64(0)))
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: hookMint, Owner: sender, Amount: 10_000_000, State: token.Initialized},
		ext(extImmutableOwner), ext(extTransferHookAccount, []byte{0}))
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: soulboundMint, Owner: sender, Amount: 1, State: token.Initialized},
		ext(extImmutableOwner), ext(extNonTransferableAcct))
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: pausedMint, Owner: sender, Amount: 5_000_000, State: token.Initialized},
		ext(extImmutableOwner), ext(extPausableAccount))
	w.tokenAccount(sol.PublicKey{}, spl, token.Account{Mint: usdcMint, Owner: recipient, Amount: recipientUSDC, State: token.Initialized})
	w.tokenAccount(sol.PublicKey{}, spl, token.Account{Mint: usdcMint, Owner: poor, Amount: 10_000_000, State: token.Initialized})
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: feeMint, Owner: treasury, Amount: treasuryFEET, State: token.Initialized},
		ext(extImmutableOwner), ext(extTransferFeeAmount, le64(0)))
	for i, o := range owners {
		state := token.Initialized
		if i == 5 {
			state = token.Frozen
		}
		usdc := token.Account{Mint: usdcMint, Owner: o, Amount: ownerUSDC(i), State: state}
		if i == 2 { // an empty account with a delegate
			usdc.Delegate = &owners[4]
		}
		w.tokenAccount(sol.PublicKey{}, spl, usdc)
		if i%3 == 0 {
			w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: pyusdMint, Owner: o, Amount: uint64(i+1) * 1_000_000, State: token.Initialized},
				ext(extTransferFeeAmount, le64(0)), ext(extImmutableOwner), ext(extTransferHookAccount, []byte{0}))
		}
		if i >= 6 && i <= 17 {
			w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: feeMint, Owner: o, Amount: uint64(i) * 10_000_000, State: token.Initialized},
				ext(extImmutableOwner), ext(extTransferFeeAmount, le64(0)))
		}
	}
	w.tokenAccount(owner0Extra, spl, token.Account{Mint: usdcMint, Owner: owners[0], Amount: owner0ExtraUSDC, State: token.Initialized,
		CloseAuthority: &owners[1]})
	w.tokenAccount(sol.PublicKey{}, spl, token.Account{Mint: wsolMint, Owner: owners[1], Amount: owner1WrappedSOL, State: token.Initialized,
		IsNative: u64p(2_039_280)})
	w.tokenAccount(sol.PublicKey{}, t22, token.Account{Mint: feeMint, Owner: owners[3], Amount: 250_000_000, State: token.Initialized},
		ext(extImmutableOwner), ext(extTransferFeeAmount, le64(owner3Withheld)))
	w.tokenAccount(testKey("owner 03 second FEET account"), t22, token.Account{Mint: feeMint, Owner: owners[3], Amount: 50_000_000, State: token.Initialized},
		ext(extTransferFeeAmount, le64(0)))
	// A multisig owned by SPL Token: never a mint or a token account.
	w.put(testKey("a multisig"), spl, rentFor(multisigSize), append([]byte{2, 3, 1}, make([]byte, multisigSize-3)...))
	return w
}

// v0Transfer is the recorded v0 transaction: the sender pays 12.5 USDC to the recipient with the
// recipient's token account and the USDC mint loaded from a lookup table (which holds another
// account the transaction does not use).
func v0Transfer(t testing.TB) *sol.Transaction {
	src, dst := ata(sender, usdcMint, tokenProgramID), ata(recipient, usdcMint, tokenProgramID)
	tx, err := sol.NewTransaction([]sol.Instruction{
		computebudget.NewSetComputeUnitLimitInstruction(40_000).Build(),
		computebudget.NewSetComputeUnitPriceInstruction(25_000).Build(),
		token.NewTransferCheckedInstruction(12_500_000, 6, src, usdcMint, dst, sender, nil).Build(),
	}, sol.MustHashFromBase58(fixtureBlockhash), sol.TransactionPayer(sender),
		sol.TransactionAddressTables(map[sol.PublicKey]sol.PublicKeySlice{lookupTable: {dst, testKey("unused writable"), usdcMint}}))
	if err != nil {
		t.Fatal(err)
	}
	tx.Signatures = []sol.Signature{sigFinal}
	return tx
}

// failedTransfer is the recorded legacy transaction that failed: the poor wallet sends more USDC
// than it has.
func failedTransfer(t testing.TB) *sol.Transaction {
	src, dst := ata(poor, usdcMint, tokenProgramID), ata(recipient, usdcMint, tokenProgramID)
	tx, err := sol.NewTransaction([]sol.Instruction{
		token.NewTransferCheckedInstruction(99_000_000, 6, src, usdcMint, dst, poor, nil).Build(),
	}, sol.MustHashFromBase58(fixtureBlockhash), sol.TransactionPayer(poor))
	if err != nil {
		t.Fatal(err)
	}
	tx.Signatures = []sol.Signature{sigFailed}
	return tx
}

func txBase64(t testing.TB, tx *sol.Transaction) string {
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(raw)
}

type jsonObj = map[string]any

func rpcCtx(slot uint64) jsonObj { return jsonObj{"apiVersion": "2.2.7", "slot": slot} }

// recordings are the recorded exchanges, by file name.
func recordings(t testing.TB) map[string]jsonObj {
	rec := func(method string, params []any, result any) jsonObj {
		return jsonObj{
			"request":  jsonObj{"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
			"response": jsonObj{"jsonrpc": "2.0", "id": 1, "result": result},
		}
	}
	cfg := jsonObj{"commitment": "confirmed"}
	fees := []any{}
	for i, f := range []uint64{0, 0, 1_000, 5_000, 10_000, 10_000, 25_000, 25_000, 50_000, 50_000, 50_000, 100_000, 100_000, 120_000,
		150_000, 200_000, 250_000, 400_000, 1_000_000, 3_500_000} {
		fees = append(fees, jsonObj{"slot": fakeSlot - 19 + i, "prioritizationFee": f})
	}
	v0 := v0Transfer(t)
	dst := ata(recipient, usdcMint, tokenProgramID)
	failed := failedTransfer(t)
	return map[string]jsonObj{
		"getGenesisHash": rec("getGenesisHash", []any{}, MainnetGenesisHash),
		"getEpochInfo": rec("getEpochInfo", []any{cfg}, jsonObj{"absoluteSlot": fakeSlot, "blockHeight": 290_612_345, "epoch": fixtureEpoch,
			"slotIndex": 129_891, "slotsInEpoch": 432_000, "transactionCount": 371_223_950_120}),
		"getLatestBlockhash": rec("getLatestBlockhash", []any{cfg}, jsonObj{"context": rpcCtx(fakeSlot),
			"value": jsonObj{"blockhash": fixtureBlockhash, "lastValidBlockHeight": fixtureLastValid}}),
		"getRecentPrioritizationFees":       rec("getRecentPrioritizationFees", []any{[]string{sender.String()}}, fees),
		"getMinimumBalanceForRentExemption": rec("getMinimumBalanceForRentExemption", []any{0, cfg}, fixtureRentExempt0),
		"getFeeForMessage":                  rec("getFeeForMessage", []any{"<message>", cfg}, jsonObj{"context": rpcCtx(fakeSlot), "value": fixtureSigFee}),
		"simulateTransaction": rec("simulateTransaction", []any{"<transaction>", jsonObj{"commitment": "confirmed", "encoding": "base64",
			"sigVerify": false, "replaceRecentBlockhash": false}},
			jsonObj{"context": rpcCtx(fakeSlot), "value": jsonObj{"err": nil, "accounts": nil, "unitsConsumed": fixtureUnits,
				"logs": []string{
					"Program ComputeBudget111111111111111111111111111111 invoke [1]",
					"Program ComputeBudget111111111111111111111111111111 success",
					"Program ComputeBudget111111111111111111111111111111 invoke [1]",
					"Program ComputeBudget111111111111111111111111111111 success",
					"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]",
					"Program log: Instruction: TransferChecked",
					"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 6200 of 1399700 compute units",
					"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success",
				},
				"returnData": nil, "innerInstructions": nil, "replacementBlockhash": nil, "loadedAccountsDataSize": 413_527}}),
		"getSignatureStatuses": rec("getSignatureStatuses",
			[]any{[]string{sigFinal.String(), sigConfirmed.String(), sigProcessed.String(), sigFailed.String(), sigUnknown.String()},
				jsonObj{"searchTransactionHistory": true}},
			jsonObj{"context": rpcCtx(fakeSlot), "value": []any{
				jsonObj{"slot": 312_457_001, "confirmations": nil, "err": nil, "status": jsonObj{"Ok": nil}, "confirmationStatus": "finalized"},
				jsonObj{"slot": 312_457_880, "confirmations": 11, "err": nil, "status": jsonObj{"Ok": nil}, "confirmationStatus": "confirmed"},
				jsonObj{"slot": 312_457_890, "confirmations": 0, "err": nil, "status": jsonObj{"Ok": nil}, "confirmationStatus": "processed"},
				jsonObj{"slot": 312_456_000, "confirmations": nil, "err": jsonObj{"InstructionError": []any{0, jsonObj{"Custom": 1}}},
					"status": jsonObj{"Err": jsonObj{"InstructionError": []any{0, jsonObj{"Custom": 1}}}}, "confirmationStatus": "finalized"},
				nil,
			}}),
		"getTransaction_v0": rec("getTransaction", []any{sigFinal.String(), jsonObj{"commitment": "confirmed", "encoding": "base64", "maxSupportedTransactionVersion": 0}},
			jsonObj{"blockTime": 1_735_171_234, "slot": 312_457_001, "version": 0,
				"transaction": []string{txBase64(t, v0), "base64"},
				"meta": jsonObj{"computeUnitsConsumed": 6_500, "err": nil, "fee": 6_000, "innerInstructions": []any{},
					"loadedAddresses": jsonObj{"writable": []string{dst.String()}, "readonly": []string{usdcMint.String()}},
					"logMessages": []string{
						"Program ComputeBudget111111111111111111111111111111 invoke [1]",
						"Program ComputeBudget111111111111111111111111111111 success",
						"Program ComputeBudget111111111111111111111111111111 invoke [1]",
						"Program ComputeBudget111111111111111111111111111111 success",
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]",
						"Program log: Instruction: TransferChecked",
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 6200 of 39700 compute units",
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success",
					},
					"postBalances": []uint64{senderLamports - 6_000, 2_039_280, 1, 934_087_680, 2_039_280, 1_461_600},
					"preBalances":  []uint64{senderLamports, 2_039_280, 1, 934_087_680, 2_039_280, 1_461_600},
					"preTokenBalances": []any{
						jsonObj{"accountIndex": 1, "mint": usdcMint.String(), "owner": sender.String(), "programId": TokenProgram,
							"uiTokenAmount": jsonObj{"amount": "1512750000", "decimals": 6, "uiAmount": 1512.75, "uiAmountString": "1512.75"}},
						jsonObj{"accountIndex": 4, "mint": usdcMint.String(), "owner": recipient.String(), "programId": TokenProgram,
							"uiTokenAmount": jsonObj{"amount": "0", "decimals": 6, "uiAmount": nil, "uiAmountString": "0"}},
					},
					"postTokenBalances": []any{
						jsonObj{"accountIndex": 1, "mint": usdcMint.String(), "owner": sender.String(), "programId": TokenProgram,
							"uiTokenAmount": jsonObj{"amount": "1500250000", "decimals": 6, "uiAmount": 1500.25, "uiAmountString": "1500.25"}},
						jsonObj{"accountIndex": 4, "mint": usdcMint.String(), "owner": recipient.String(), "programId": TokenProgram,
							"uiTokenAmount": jsonObj{"amount": "12500000", "decimals": 6, "uiAmount": 12.5, "uiAmountString": "12.5"}},
					},
					"rewards": []any{}, "status": jsonObj{"Ok": nil}}}),
		"getTransaction_failed": rec("getTransaction", []any{sigFailed.String(), jsonObj{"commitment": "confirmed", "encoding": "base64", "maxSupportedTransactionVersion": 0}},
			jsonObj{"blockTime": 1_735_170_001, "slot": 312_456_000, "version": "legacy",
				"transaction": []string{txBase64(t, failed), "base64"},
				"meta": jsonObj{"computeUnitsConsumed": 4_100, "err": jsonObj{"InstructionError": []any{0, jsonObj{"Custom": 1}}}, "fee": 5_000,
					"innerInstructions": []any{}, "loadedAddresses": jsonObj{"writable": []string{}, "readonly": []string{}},
					"logMessages": []string{
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]",
						"Program log: Instruction: TransferChecked",
						"Program log: Error: insufficient funds",
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA consumed 4100 of 200000 compute units",
						"Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1",
					},
					"postBalances": []uint64{0, 2_039_280, 2_039_280, 1_461_600, 934_087_680}, "preBalances": []uint64{3_000 + 2_000, 2_039_280, 2_039_280, 1_461_600, 934_087_680},
					"preTokenBalances": []any{}, "postTokenBalances": []any{}, "rewards": []any{},
					"status": jsonObj{"Err": jsonObj{"InstructionError": []any{0, jsonObj{"Custom": 1}}}}}}),
	}
}

func marshalFixture(t testing.TB, v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func fixtureFiles(t testing.TB) map[string][]byte {
	w := newFixtureWorld(t)
	keys := make([]sol.PublicKey, 0, len(w.accounts))
	for k := range w.accounts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b sol.PublicKey) int { return bytes.Compare(a[:], b[:]) })
	var keyed []jsonObj
	for _, k := range keys {
		keyed = append(keyed, jsonObj{"pubkey": k.String(), "account": w.accounts[k]})
	}
	files := map[string][]byte{"accounts.json": marshalFixture(t, keyed)}
	for name, r := range recordings(t) {
		files[filepath.Join("rpc", name+".json")] = marshalFixture(t, r)
	}
	return files
}

// TestFixtures checks that testdata holds what the definitions above write (go test -run
// TestFixtures -update rewrites it).
func TestFixtures(t *testing.T) {
	for name, want := range fixtureFiles(t) {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -run TestFixtures -update writes it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what fixtures_test.go writes: go test -run TestFixtures -update", path)
		}
	}
}
