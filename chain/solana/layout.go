package solana

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	sol "github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain"
	"github.com/partner-platform/partnerd/chain/svm"
)

// Parsers of account data: SPL Token and Token-2022 mints and token accounts (with Token-2022's
// TLV extensions) and Metaplex metadata accounts, following the programs' documented layouts
// (spl-token state.rs, spl-token-2022 extension/mod.rs, mpl-token-metadata Metadata). Account data
// is outside input: every parser checks every length and never panics (fuzzed).

// Layout sizes.
const (
	mintSize      = 82  // spl_token::state::Mint::LEN
	accountSize   = 165 // spl_token::state::Account::LEN; also where Token-2022's account type byte sits
	multisigSize  = 355 // spl_token::state::Multisig::LEN: never a valid extended mint or account length
	tlvStart      = accountSize + 1
	accountTypeMt = 1 // Token-2022 AccountType::Mint
	accountTypeAc = 2 // Token-2022 AccountType::Account
)

var errLayout = errors.New("account data does not match the layout")

func layoutErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errLayout, fmt.Sprintf(format, args...))
}

// Extension type names, as the Token-2022 program names them (ExtensionType), by number.
var extensionNames = []string{
	"Uninitialized", "TransferFeeConfig", "TransferFeeAmount", "MintCloseAuthority", "ConfidentialTransferMint",
	"ConfidentialTransferAccount", "DefaultAccountState", "ImmutableOwner", "MemoTransfer", "NonTransferable",
	"InterestBearingConfig", "CpiGuard", "PermanentDelegate", "NonTransferableAccount", "TransferHook",
	"TransferHookAccount", "ConfidentialTransferFeeConfig", "ConfidentialTransferFeeAmount", "MetadataPointer",
	"TokenMetadata", "GroupPointer", "TokenGroup", "GroupMemberPointer", "TokenGroupMember", "ConfidentialMintBurn",
	"ScaledUiAmount", "Pausable", "PausableAccount", "PermissionedBurn",
}

// Extension type numbers the adapter reads.
const (
	extTransferFeeConfig     = 1
	extTransferFeeAmount     = 2
	extMintCloseAuthority    = 3
	extConfidentialMint      = 4
	extDefaultAccountState   = 6
	extImmutableOwner        = 7
	extNonTransferable       = 9
	extInterestBearing       = 10
	extPermanentDelegate     = 12
	extNonTransferableAcct   = 13
	extTransferHook          = 14
	extTransferHookAccount   = 15
	extConfidentialFeeConfig = 16
	extMetadataPointer       = 18
	extTokenMetadata         = 19
	extScaledUIAmount        = 25
	extPausable              = 26
	extPausableAccount       = 27
)

func extensionName(t uint16) string {
	if int(t) < len(extensionNames) {
		return extensionNames[t]
	}
	return fmt.Sprintf("ExtensionType(%d)", t)
}

// reader reads little-endian fields from account data, remembering the first short read.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = layoutErr("%d bytes at offset %d, only %d left", n, r.off, len(r.b)-r.off)
		return nil
	}
	out := r.b[r.off : r.off+n]
	r.off += n
	return out
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) i64() int64 { return int64(r.u64()) }
func (r *reader) i16() int16 { return int16(r.u16()) }

// key reads a 32-byte public key.
func (r *reader) key() sol.PublicKey {
	if b := r.take(32); b != nil {
		return sol.PublicKeyFromBytes(b)
	}
	return sol.PublicKey{}
}

// bool reads a one-byte bool, which must be 0 or 1.
func (r *reader) bool() bool {
	v := r.u8()
	if v > 1 && r.err == nil {
		r.err = layoutErr("bool byte %d at offset %d", v, r.off-1)
	}
	return v == 1
}

// coptionKey reads a COption<Pubkey> (u32 tag, then the key): "" for None.
func (r *reader) coptionKey() string {
	tag := r.u32()
	k := r.key()
	switch {
	case r.err != nil:
		return ""
	case tag == 0:
		return ""
	case tag == 1:
		return k.String()
	}
	r.err = layoutErr("COption tag %d at offset %d", tag, r.off-36)
	return ""
}

// coptionU64 reads a COption<u64>.
func (r *reader) coptionU64() (uint64, bool) {
	tag := r.u32()
	v := r.u64()
	if r.err == nil && tag > 1 {
		r.err = layoutErr("COption tag %d at offset %d", tag, r.off-12)
	}
	return v, tag == 1
}

// optionalKey reads Token-2022's OptionalNonZeroPubkey: all zero bytes is None ("").
func (r *reader) optionalKey() string {
	k := r.key()
	if r.err != nil || k.IsZero() {
		return ""
	}
	return k.String()
}

// borshString reads a borsh String (u32 length, then UTF-8 bytes), at most limit bytes long.
func (r *reader) borshString(limit int) string {
	n := r.u32()
	if r.err == nil && int64(n) > int64(limit) {
		r.err = layoutErr("string of %d bytes at offset %d (at most %d)", n, r.off-4, limit)
		return ""
	}
	b := r.take(int(n))
	if r.err != nil {
		return ""
	}
	return cleanText(b)
}

// cleanText trims the NUL padding Metaplex adds and replaces invalid UTF-8.
func cleanText(b []byte) string {
	s := strings.TrimRight(string(b), "\x00")
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// mintState is a parsed mint account.
type mintState struct {
	decimals        int
	supply          uint64
	mintAuthority   string
	freezeAuthority string
	ext             chain.SVMMintExtensions
	extTypes        []uint16
}

// parseMint parses an initialized mint owned by program (SPL Token or Token-2022).
func parseMint(program sol.PublicKey, data []byte) (mintState, error) {
	var m mintState
	switch {
	case len(data) == mintSize:
	case program == token2022ID && len(data) > accountSize && len(data) != multisigSize:
		for i := mintSize; i < accountSize; i++ {
			if data[i] != 0 {
				return m, layoutErr("mint padding byte %d is %d", i, data[i])
			}
		}
		if data[accountSize] != accountTypeMt {
			return m, layoutErr("account type %d, want %d (mint)", data[accountSize], accountTypeMt)
		}
	default:
		return m, layoutErr("%d bytes is not a mint of %s", len(data), programName(program))
	}
	r := &reader{b: data}
	m.mintAuthority = r.coptionKey()
	m.supply = r.u64()
	m.decimals = int(r.u8())
	initialized := r.bool()
	m.freezeAuthority = r.coptionKey()
	if r.err != nil {
		return m, r.err
	}
	if !initialized {
		return m, layoutErr("mint not initialized")
	}
	if len(data) > accountSize {
		tlvs, err := parseTLV(data[tlvStart:])
		if err != nil {
			return m, err
		}
		for _, t := range tlvs {
			m.extTypes = append(m.extTypes, t.typ)
			m.ext.Types = append(m.ext.Types, extensionName(t.typ))
			if err := decodeExtension(&m.ext, t); err != nil {
				return m, err
			}
		}
	}
	return m, nil
}

// tlv is one Token-2022 extension entry.
type tlv struct {
	typ   uint16
	value []byte
}

// parseTLV reads extension entries (u16 type, u16 length, value) until the data ends or an
// Uninitialized (0) type starts the zero fill, as the program does. A type announced without room
// for its length, a value running past the data, or a type given twice is an error.
func parseTLV(data []byte) ([]tlv, error) {
	var out []tlv
	seen := map[uint16]bool{}
	for off := 0; off < len(data); {
		if len(data)-off < 2 {
			break // too short for a type: unused space
		}
		typ := binary.LittleEndian.Uint16(data[off:])
		if typ == 0 {
			break
		}
		if len(data)-off < 4 {
			return nil, layoutErr("extension %d at offset %d has no length", typ, off)
		}
		n := int(binary.LittleEndian.Uint16(data[off+2:]))
		if len(data)-off-4 < n {
			return nil, layoutErr("extension %d at offset %d runs past the data (%d bytes)", typ, off, n)
		}
		if seen[typ] {
			return nil, layoutErr("extension %d given twice", typ)
		}
		seen[typ] = true
		out = append(out, tlv{typ: typ, value: data[off+4 : off+4+n]})
		off += 4 + n
	}
	return out, nil
}

// decodeExtension fills the field of e for a mint extension the adapter reads. A value shorter
// than the extension's layout is an error; a longer one is read by its known prefix.
func decodeExtension(e *chain.SVMMintExtensions, t tlv) error {
	r := &reader{b: t.value}
	need := func(n int) bool {
		if len(t.value) < n {
			r.err = layoutErr("%s extension of %d bytes, want %d", extensionName(t.typ), len(t.value), n)
			return false
		}
		return true
	}
	switch t.typ {
	case extTransferFeeConfig:
		if need(108) {
			c := &chain.SVMTransferFeeConfig{ConfigAuthority: r.optionalKey(), WithdrawAuthority: r.optionalKey(), WithheldAmount: r.u64()}
			c.Older = svm.FeeSchedule{Epoch: r.u64(), MaximumFee: r.u64(), BasisPoints: r.u16()}
			c.Newer = svm.FeeSchedule{Epoch: r.u64(), MaximumFee: r.u64(), BasisPoints: r.u16()}
			e.TransferFee = c
		}
	case extMintCloseAuthority:
		if need(32) {
			e.MintCloseAuthority = r.optionalKey()
		}
	case extPermanentDelegate:
		if need(32) {
			e.PermanentDelegate = r.optionalKey()
		}
	case extTransferHook:
		if need(64) {
			e.TransferHook = &chain.SVMTransferHook{Authority: r.optionalKey(), Program: r.optionalKey()}
		}
	case extMetadataPointer:
		if need(64) {
			e.MetadataPointer = &chain.SVMPointer{Authority: r.optionalKey(), Address: r.optionalKey()}
		}
	case extNonTransferable:
		e.NonTransferable = true
	case extDefaultAccountState:
		if need(1) {
			switch s := r.u8(); s {
			case 1:
				e.DefaultAccountState = "initialized"
			case 2:
				e.DefaultAccountState = "frozen"
			default:
				r.err = layoutErr("default account state %d", s)
			}
		}
	case extInterestBearing:
		if need(52) {
			e.InterestBearing = &chain.SVMInterestBearing{RateAuthority: r.optionalKey(), InitTimestamp: r.i64(),
				PreUpdateAverageRate: r.i16(), LastUpdateTimestamp: r.i64(), CurrentRate: r.i16()}
		}
	case extPausable:
		if need(33) {
			e.Pausable = &chain.SVMPausable{Authority: r.optionalKey(), Paused: r.bool()}
		}
	case extTokenMetadata:
		md, err := parseTokenMetadata(t.value)
		if err != nil {
			return err
		}
		e.TokenMetadata = &md
	}
	return r.err
}

// Bounds of metadata strings, far above what the programs allow (Metaplex: 32, 10 and 200
// bytes), so that a hostile length cannot make the parser allocate much.
const (
	maxMetadataString = 4 << 10
	maxAdditional     = 256
)

// parseTokenMetadata parses the TokenMetadata extension (spl-token-metadata-interface): update
// authority (OptionalNonZeroPubkey), mint, name, symbol and uri (borsh strings) and the
// additional key-value pairs (a borsh Vec of string pairs).
func parseTokenMetadata(b []byte) (chain.SVMTokenMetadata, error) {
	r := &reader{b: b}
	md := chain.SVMTokenMetadata{UpdateAuthority: r.optionalKey()}
	mint := r.key()
	md.Name = r.borshString(maxMetadataString)
	md.Symbol = r.borshString(maxMetadataString)
	md.URI = r.borshString(maxMetadataString)
	n := r.u32()
	if r.err == nil && n > maxAdditional {
		r.err = layoutErr("%d additional metadata fields", n)
	}
	for i := uint32(0); r.err == nil && i < n; i++ {
		k := r.borshString(maxMetadataString)
		v := r.borshString(maxMetadataString)
		md.Additional = append(md.Additional, [2]string{k, v})
	}
	if r.err != nil {
		return chain.SVMTokenMetadata{}, r.err
	}
	md.Mint = mint.String()
	return md, nil
}

// tokenAccount is a parsed token account.
type tokenAccount struct {
	mint, owner     sol.PublicKey
	amount          uint64
	delegate        string
	frozen          bool
	native          bool
	nativeReserve   uint64 // rent-exempt reserve of a wrapped SOL account
	delegatedAmount uint64
	closeAuthority  string
	extTypes        []string
}

// parseTokenAccount parses an initialized token account owned by program.
func parseTokenAccount(program sol.PublicKey, data []byte) (tokenAccount, error) {
	var a tokenAccount
	switch {
	case len(data) == accountSize:
	case program == token2022ID && len(data) > accountSize && len(data) != multisigSize:
		if data[accountSize] != accountTypeAc {
			return a, layoutErr("account type %d, want %d (token account)", data[accountSize], accountTypeAc)
		}
	default:
		return a, layoutErr("%d bytes is not a token account of %s", len(data), programName(program))
	}
	r := &reader{b: data}
	a.mint = r.key()
	a.owner = r.key()
	a.amount = r.u64()
	a.delegate = r.coptionKey()
	state := r.u8()
	a.nativeReserve, a.native = r.coptionU64()
	a.delegatedAmount = r.u64()
	a.closeAuthority = r.coptionKey()
	if r.err != nil {
		return a, r.err
	}
	switch state {
	case 1:
	case 2:
		a.frozen = true
	case 0:
		return a, layoutErr("token account not initialized")
	default:
		return a, layoutErr("token account state %d", state)
	}
	if len(data) > accountSize {
		tlvs, err := parseTLV(data[tlvStart:])
		if err != nil {
			return a, err
		}
		for _, t := range tlvs {
			a.extTypes = append(a.extTypes, extensionName(t.typ))
		}
	}
	return a, nil
}

// parseMetaplex parses a Metaplex Token Metadata account (key MetadataV1 = 4): update authority,
// mint, then name, symbol and uri (borsh strings, NUL-padded), seller fee, creators and the
// is_mutable flag. The mint must be want.
func parseMetaplex(want sol.PublicKey, data []byte) (chain.SVMMintMetadata, error) {
	r := &reader{b: data}
	if key := r.u8(); r.err == nil && key != 4 {
		return chain.SVMMintMetadata{}, layoutErr("metadata key %d, want 4 (MetadataV1)", key)
	}
	update := r.key()
	mint := r.key()
	md := chain.SVMMintMetadata{Source: "metaplex", Name: r.borshString(maxMetadataString), Symbol: r.borshString(maxMetadataString),
		URI: r.borshString(maxMetadataString), UpdateAuthority: update.String()}
	if r.err != nil {
		return chain.SVMMintMetadata{}, r.err
	}
	if mint != want {
		return chain.SVMMintMetadata{}, layoutErr("metadata of mint %s, want %s", mint, want)
	}
	// seller_fee_basis_points, creators: Option<Vec<Creator{address, verified, share}>>,
	// primary_sale_happened, is_mutable. Old accounts may end early: mutability then stays true.
	md.Mutable = true
	r.u16()
	if r.bool() {
		n := r.u32()
		if r.err == nil && int64(n)*34 > int64(len(data)) {
			r.err = layoutErr("%d creators", n)
		}
		r.take(int(n) * 34)
	}
	r.bool()
	if mutable := r.bool(); r.err == nil {
		md.Mutable = mutable
	}
	return md, nil
}

func programName(p sol.PublicKey) string {
	switch p {
	case tokenProgramID:
		return "SPL Token"
	case token2022ID:
		return "Token-2022"
	}
	return p.String()
}
