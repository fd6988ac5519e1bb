//go:build ignore

// gen_vectors.go writes vectors.json: what solana-go (the SDK chain/solana uses) answers for base58
// addresses, the ed25519 on-curve check, create_program_address, find_program_address and
// associated token accounts. chain/svm's tests hold the SDK-free implementation to it. It is the
// only file under chain/svm that names solana-go, and it is not part of any build:
//
//	go run chain/svm/testdata/gen_vectors.go > chain/svm/testdata/vectors.json
//
// The output is deterministic: every input derives from SHA-256 of a label.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"runtime/debug"

	"github.com/gagliardetto/solana-go"
)

func h(label string) []byte {
	s := sha256.Sum256([]byte("chain/svm vectors/" + label))
	return s[:]
}

func key(label string) solana.PublicKey { return solana.PublicKeyFromBytes(h(label)) }

type b58 struct {
	Hex    string `json:"hex"`
	Base58 string `json:"base58"`
}

type parse struct {
	S   string `json:"s"`
	Hex string `json:"hex,omitempty"` // the key solana-go parses s as
	Err string `json:"err,omitempty"` // or its error
}

type curve struct {
	Hex     string `json:"hex"`
	What    string `json:"what,omitempty"`
	OnCurve bool   `json:"onCurve"`
}

type pda struct {
	Seeds   []string `json:"seeds"` // hex
	Program string   `json:"program"`
	Bump    *uint8   `json:"bump,omitempty"` // find: the bump found
	Address string   `json:"address,omitempty"`
	Err     string   `json:"err,omitempty"`
}

type ata struct {
	Owner, Mint, TokenProgram, Address string
}

func main() {
	version := "?"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/gagliardetto/solana-go" {
				version = d.Version
			}
		}
	}
	out := map[string]any{
		"about": "What github.com/gagliardetto/solana-go " + version + " answers; written by gen_vectors.go beside this file.",
	}

	// base58: keys with 0..32 leading zero bytes, all 0xff, and hashes
	var enc []b58
	add := func(b []byte) {
		enc = append(enc, b58{hex.EncodeToString(b), solana.PublicKeyFromBytes(b).String()})
	}
	for z := 0; z <= 32; z++ {
		b := h(fmt.Sprintf("zeros/%d", z))
		for i := range z {
			b[i] = 0
		}
		add(b)
	}
	ff := make([]byte, 32)
	for i := range ff {
		ff[i] = 0xff
	}
	add(ff)
	for i := range 64 {
		add(h(fmt.Sprintf("key/%d", i)))
	}
	for _, s := range []string{"11111111111111111111111111111111", "CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C",
		"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
		"ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", "So11111111111111111111111111111111111111112"} {
		add(solana.MustPublicKeyFromBase58(s).Bytes())
	}
	out["base58"] = enc

	// strings to parse as a public key: valid and invalid, the ones a parser is likely to get wrong
	var parses []parse
	candidates := []string{
		"", "1", "1111111111111111111111111111111", // 31 zero bytes
		"111111111111111111111111111111111", // 33
		"0x8ba1f109551bD432803012645Ac136ddd64DBA72",
		"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", // past 2^256
		"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG", // 2^256 - 1
		"JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFH", // 2^256
		"CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1\u00e9",
	}
	for _, base := range []string{"CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C", "11111111111111111111111111111111",
		"So11111111111111111111111111111111111111112", solana.PublicKeyFromBytes(h("parse")).String()} {
		candidates = append(candidates, base, base[:len(base)-1], base+"1", base+"z", "1"+base, "z"+base, " "+base, base+" ", base+"\n")
		for _, c := range "0OIl+/=-" {
			candidates = append(candidates, base[:5]+string(c)+base[6:])
		}
	}
	for _, s := range candidates {
		k, err := solana.PublicKeyFromBase58(s)
		v := parse{S: s}
		if err != nil {
			v.Err = err.Error()
		} else {
			v.Hex = hex.EncodeToString(k[:])
		}
		parses = append(parses, v)
	}
	out["parse"] = parses

	// the on-curve check: the edge encodings (y = 0, 1, 2, p-1 and the 19 non-canonical y from p to
	// 2^255-1, each with both sign bits), the 8 small-order points, and hashes
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 255), big.NewInt(19))
	le := func(y *big.Int, sign bool) []byte {
		b := make([]byte, 32)
		y.FillBytes(b)
		for i, j := 0, 31; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		if sign {
			b[31] |= 0x80
		}
		return b
	}
	var cs []curve
	addC := func(b []byte, what string) {
		cs = append(cs, curve{hex.EncodeToString(b), what, solana.IsOnCurve(b)})
	}
	ys := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2), new(big.Int).Sub(p, big.NewInt(1))}
	for i := range int64(19) {
		ys = append(ys, new(big.Int).Add(p, big.NewInt(i)))
	}
	for _, y := range ys {
		for _, s := range []bool{false, true} {
			addC(le(y, s), fmt.Sprintf("y=%s sign=%v", y, s))
		}
	}
	for _, s := range []string{ // the small-order points (RFC 8032 test lore; libsodium's blocklist)
		"0100000000000000000000000000000000000000000000000000000000000000",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"0000000000000000000000000000000000000000000000000000000000000080",
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
		"26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
		"5866666666666666666666666666666666666666666666666666666666666666", // the base point
	} {
		b, _ := hex.DecodeString(s)
		addC(b, "small order or base point")
	}
	for i := range 512 {
		addC(h(fmt.Sprintf("curve/%d", i)), "")
	}
	out["onCurve"] = cs

	hexes := func(seeds [][]byte) []string {
		s := make([]string, len(seeds))
		for i, b := range seeds {
			s[i] = hex.EncodeToString(b)
		}
		return s
	}
	cpmm := solana.MustPublicKeyFromBase58("CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C")
	programs := []solana.PublicKey{cpmm, solana.SPLAssociatedTokenAccountProgramID, key("program/a"), key("program/b")}

	// create_program_address: seed sets of every shape, each with bumps 255..250 (some on the curve)
	var creates []pda
	seedSets := [][][]byte{
		{},
		{[]byte("vault_and_lp_mint_auth_seed")},
		{[]byte("amm_config"), {0, 0}},
		{[]byte("pool"), h("a"), h("b"), h("c")},
		{[]byte{}},
		{h("32 bytes")},
		{append(h("33 bytes"), 1)},
		{[]byte("a"), []byte("b"), []byte("c"), []byte("d"), []byte("e"), []byte("f"), []byte("g"), []byte("h"),
			[]byte("i"), []byte("j"), []byte("k"), []byte("l"), []byte("m"), []byte("n"), []byte("o")}, // 15
	}
	for i, prog := range programs {
		for j, seeds := range seedSets {
			for bump := 255; bump >= 250; bump-- {
				s := append(append([][]byte{}, seeds...), []byte{byte(bump)})
				if (i+j)%2 == 1 && bump < 254 {
					continue
				}
				a, err := solana.CreateProgramAddress(s, prog)
				v := pda{Seeds: hexes(s), Program: prog.String()}
				if err != nil {
					v.Err = err.Error()
				} else {
					v.Address = a.String()
				}
				creates = append(creates, v)
			}
		}
	}
	// 16 seeds (the most) and 17
	sixteen := make([][]byte, 16)
	for i := range sixteen {
		sixteen[i] = []byte{byte(i)}
	}
	for _, s := range [][][]byte{sixteen, append(append([][]byte{}, sixteen...), []byte{16})} {
		a, err := solana.CreateProgramAddress(s, cpmm)
		v := pda{Seeds: hexes(s), Program: cpmm.String()}
		if err != nil {
			v.Err = err.Error()
		} else {
			v.Address = a.String()
		}
		creates = append(creates, v)
	}
	out["createProgramAddress"] = creates

	// find_program_address: the seed sets above (16 seeds: none, as no bump fits), and many hashes,
	// so that bumps below 255 occur
	var finds []pda
	find := func(seeds [][]byte, prog solana.PublicKey) {
		a, bump, err := solana.FindProgramAddress(seeds, prog)
		v := pda{Seeds: hexes(seeds), Program: prog.String()}
		if err != nil {
			v.Err = err.Error()
		} else {
			v.Address, v.Bump = a.String(), &bump
		}
		finds = append(finds, v)
	}
	for _, prog := range programs {
		for _, seeds := range seedSets {
			find(seeds, prog)
		}
	}
	find(sixteen, cpmm)
	for i := range 256 {
		find([][]byte{[]byte("seed"), h(fmt.Sprintf("find/%d", i))}, programs[i%len(programs)])
	}
	out["findProgramAddress"] = finds

	var atas []ata
	for i := range 32 {
		tp := solana.TokenProgramID
		if i%2 == 1 {
			tp = solana.Token2022ProgramID
		}
		owner, mint := key(fmt.Sprintf("owner/%d", i)), key(fmt.Sprintf("mint/%d", i))
		a, _, err := solana.FindAssociatedTokenAddressWithProgram(owner, mint, tp)
		if err != nil {
			panic(err)
		}
		atas = append(atas, ata{owner.String(), mint.String(), tp.String(), a.String()})
	}
	out["associatedTokenAccount"] = atas

	e := json.NewEncoder(os.Stdout)
	e.SetIndent("", " ")
	if err := e.Encode(out); err != nil {
		panic(err)
	}
}
