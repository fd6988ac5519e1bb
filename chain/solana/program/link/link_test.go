package link

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gagliardetto/solana-go"

	"github.com/partner-platform/partnerd/chain/solana/program/internal/svmtest"
)

var update = flag.Bool("update", false, "rewrite testdata/hello.so from testdata/hello.o")

// TestMurmur3 holds the hash to the values the loader registers syscalls under (those the Solana C
// SDK's headers name for its static syscalls).
func TestMurmur3(t *testing.T) {
	for name, want := range map[string]uint32{
		"sol_log_":                     0x207559bd,
		"sol_log_64_":                  0x5c2a3178,
		"sol_log_pubkey":               0x7ef088ca,
		"sol_log_compute_units_":       0x52ba5096,
		"sol_log_data":                 0x7317b434,
		"sol_invoke_signed_c":          0xa22b9c85,
		"sol_create_program_address":   0x9377323c,
		"sol_try_find_program_address": 0x48504a38,
		"sol_sha256":                   0x11f49d86,
		"sol_memcpy_":                  0x717cc4a3,
		"sol_memset_":                  0x3770fb22,
		"sol_memcmp_":                  0x5fdcde31,
		"sol_panic_":                   0x686093bb,
		"abort":                        0xb6fc1a11,
		"sol_get_clock_sysvar":         0xd56b5fe9,
		"sol_get_rent_sysvar":          0xbf7188f6,
		"entrypoint":                   0x71e3cf81,
	} {
		if got := Murmur3([]byte(name)); got != want {
			t.Errorf("Murmur3(%q) = %#x, want %#x", name, got, want)
		}
	}
}

func linkHello(t *testing.T) []byte {
	t.Helper()
	obj, err := os.ReadFile(filepath.Join("testdata", "hello.o"))
	if err != nil {
		t.Fatal(err)
	}
	so, err := Link(obj)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Link(obj)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(so, again) {
		t.Fatal("linking the same object twice gave different files")
	}
	return so
}

// TestGolden: the linked hello program is byte for byte the committed one (go test -update rewrites
// it after a deliberate change of the linker; the structural test below says what it must hold).
func TestGolden(t *testing.T) {
	so := linkHello(t)
	golden := filepath.Join("testdata", "hello.so")
	if *update {
		if err := os.WriteFile(golden, so, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(so, want) {
		t.Fatalf("linked hello.o differs from testdata/hello.so (%d bytes, want %d); run go test -update if the change is deliberate", len(so), len(want))
	}
}

// TestStructure checks the linked file as the loader reads it.
func TestStructure(t *testing.T) {
	so := linkHello(t)
	f, err := elf.NewFile(bytes.NewReader(so))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian

	// ELF header.
	if f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB || f.OSABI != elf.ELFOSABI_NONE || f.Type != elf.ET_DYN || f.Machine != elf.EM_BPF {
		t.Fatalf("header: %v %v %v %v %v", f.Class, f.Data, f.OSABI, f.Type, f.Machine)
	}
	if flags := le.Uint32(so[48:]); flags != 0 {
		t.Fatalf("e_flags = %d, want 0 (SBPF v0)", flags)
	}

	// Sections: names, vaddr = file offset, in file order.
	var names []string
	var last uint64
	for _, s := range f.Sections[1:] {
		names = append(names, s.Name)
		if s.Flags&elf.SHF_ALLOC != 0 && s.Addr != s.Offset {
			t.Errorf("%s: address %#x != offset %#x", s.Name, s.Addr, s.Offset)
		}
		if s.Offset < last {
			t.Errorf("%s: out of order", s.Name)
		}
		last = s.Offset + s.Size
	}
	if got := strings.Join(names, " "); got != ".text .rodata .dynamic .dynsym .dynstr .rel.dyn .shstrtab" {
		t.Fatalf("sections: %s", got)
	}
	text, rodata := f.Section(".text"), f.Section(".rodata")
	code, _ := text.Data()

	// Entry: the entrypoint function.
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	if len(syms) == 0 || syms[0].Name != "entrypoint" || elf.ST_TYPE(syms[0].Info) != elf.STT_FUNC || syms[0].Value != f.Entry {
		t.Fatalf("dynsym[1] = %+v, entry %#x", syms, f.Entry)
	}
	if f.Entry != text.Addr+16*8 { // hello.o: twice (9 insns), pick (7), then entrypoint
		t.Fatalf("entry %#x, want .text+0x80", f.Entry)
	}
	var undef []string
	for _, s := range syms[1:] {
		if s.Section != elf.SHN_UNDEF || elf.ST_BIND(s.Info) != elf.STB_GLOBAL {
			t.Errorf("dynsym %s: %+v, want an undefined global", s.Name, s)
		}
		undef = append(undef, s.Name)
	}
	if got := strings.Join(undef, " "); got != "sol_log_ sol_log_64_ sol_memcpy_" {
		t.Fatalf("undefined dynamic symbols: %s", got)
	}

	// Program headers.
	var types []string
	var vaddr uint64
	for _, p := range f.Progs {
		types = append(types, p.Type.String())
		if p.Vaddr != p.Off {
			t.Errorf("%v: vaddr %#x != offset %#x", p.Type, p.Vaddr, p.Off)
		}
		if p.Type == elf.PT_LOAD {
			if p.Vaddr < vaddr {
				t.Errorf("PT_LOAD at %#x below the previous", p.Vaddr)
			}
			vaddr = p.Vaddr
		}
	}
	if got := strings.Join(types, " "); got != "PT_LOAD PT_LOAD PT_LOAD PT_DYNAMIC" {
		t.Fatalf("program headers: %s", got)
	}
	if p := f.Progs[0]; p.Flags != elf.PF_R|elf.PF_X || p.Off != text.Offset || p.Filesz != text.Size {
		t.Errorf("text segment %+v", p.ProgHeader)
	}
	dynamic := f.Section(".dynamic")
	if p := f.Progs[3]; p.Off != dynamic.Offset || p.Filesz != dynamic.Size {
		t.Errorf("PT_DYNAMIC %+v, .dynamic at %#x+%d", p.ProgHeader, dynamic.Offset, dynamic.Size)
	}

	// Dynamic section.
	dyn, _ := dynamic.Data()
	tags := map[elf.DynTag]uint64{}
	for i := 0; i+16 <= len(dyn); i += 16 {
		tag := elf.DynTag(le.Uint64(dyn[i:]))
		tags[tag] = le.Uint64(dyn[i+8:])
		if tag == elf.DT_NULL {
			break
		}
	}
	relDyn, dynsym, dynstr := f.Section(".rel.dyn"), f.Section(".dynsym"), f.Section(".dynstr")
	for tag, want := range map[elf.DynTag]uint64{
		elf.DT_REL: relDyn.Addr, elf.DT_RELSZ: relDyn.Size, elf.DT_RELENT: 16, elf.DT_RELCOUNT: 4,
		elf.DT_SYMTAB: dynsym.Addr, elf.DT_SYMENT: 24, elf.DT_STRTAB: dynstr.Addr, elf.DT_STRSZ: dynstr.Size,
		elf.DT_FLAGS: uint64(elf.DF_TEXTREL),
	} {
		if tags[tag] != want {
			t.Errorf("%v = %#x, want %#x", tag, tags[tag], want)
		}
	}

	// Relocations: four RELATIVE (the lddw of the two strings, the table and the names), then one
	// R_BPF_64_32 per syscall call site, naming its symbol, on a call with imm -1.
	rb, _ := relDyn.Data()
	type entry struct {
		off      uint64
		typ, sym uint32
	}
	var rels []entry
	for i := 0; i < len(rb); i += 16 {
		info := le.Uint64(rb[i+8:])
		rels = append(rels, entry{le.Uint64(rb[i:]), uint32(info), uint32(info >> 32)})
	}
	calls := map[string]int{}
	for i, r := range rels {
		at := r.off - text.Offset
		if r.off < text.Offset || at >= text.Size {
			t.Fatalf("relocation %d at %#x outside .text", i, r.off)
		}
		insn := code[at:]
		switch {
		case i < 4:
			if r.typ != rBPF64_Relative || insn[0] != 0x18 {
				t.Fatalf("relocation %d: type %d on opcode %#x, want RELATIVE on lddw", i, r.typ, insn[0])
			}
			addr := uint64(le.Uint32(insn[4:])) | uint64(le.Uint32(insn[12:]))<<32
			if addr < rodata.Addr || addr >= rodata.Addr+rodata.Size {
				t.Errorf("lddw at %#x loads %#x, outside .rodata", r.off, addr)
			}
		default:
			if r.typ != rBPF64_32 || insn[0] != 0x85 || int32(le.Uint32(insn[4:])) != -1 {
				t.Fatalf("relocation %d: type %d on %x, want R_BPF_64_32 on call -1", i, r.typ, insn[:8])
			}
			calls[syms[r.sym-1].Name]++
		}
	}
	if calls["sol_log_"] != 3 || calls["sol_log_64_"] != 1 || calls["sol_memcpy_"] != 1 || len(calls) != 3 {
		t.Errorf("syscall call sites: %v", calls)
	}
	// The table lddw of pick carries its addend: .rodata+16 is where table starts (after "hello from C\0" and padding).
	ro, _ := rodata.Data()
	for _, r := range rels[:4] {
		insn := code[r.off-text.Offset:]
		addr := uint64(le.Uint32(insn[4:]))
		if bytes.HasPrefix(ro[addr-rodata.Addr:], []byte("hello from C")) || bytes.HasPrefix(ro[addr-rodata.Addr:], []byte("twice")) {
			continue
		}
		if p := le.Uint64(ro[addr-rodata.Addr:]); p >= ProgramRegion+rodata.Addr && p < ProgramRegion+rodata.Addr+rodata.Size {
			// the names table: two pointers into .rodata, in the program region
			first := ro[p-ProgramRegion-rodata.Addr:]
			second := ro[le.Uint64(ro[addr-rodata.Addr+8:])-ProgramRegion-rodata.Addr:]
			if !bytes.HasPrefix(first, []byte("first\x00")) || !bytes.HasPrefix(second, []byte("second\x00")) {
				t.Errorf("names table points at %q and %q", first[:6], second[:7])
			}
			continue
		}
		if le.Uint64(ro[addr-rodata.Addr:]) != 1 || le.Uint64(ro[addr-rodata.Addr+8:]) != 10 {
			t.Errorf("lddw at %#x loads %#x: neither a string nor the table", r.off, addr)
		}
	}

	// Calls between functions are relative and land on a function's first instruction.
	starts := map[int64]bool{}
	for _, s := range syms0(t, f) {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			starts[int64((s.Value-text.Addr)/8)] = true
		}
	}
	for i := 0; i < len(code); i += 8 {
		if code[i] == 0x18 {
			i += 8
			continue
		}
		if code[i] != 0x85 {
			continue
		}
		imm := int32(le.Uint32(code[i+4:]))
		if imm == -1 {
			continue
		}
		if target := int64(i/8) + 1 + int64(imm); !starts[target] || code[i+1]>>4 != 1 {
			t.Errorf("call at insn %d: imm %d, src %d: target %d is no function", i/8, imm, code[i+1]>>4, target)
		}
	}
}

// TestRefuses: writable globals and calls of unknown functions are link errors, not broken programs.
func TestRefuses(t *testing.T) {
	for file, want := range map[string]string{
		"bad_data.o": "writable section",
		"bad_call.o": `undefined symbol "helper"`,
	} {
		obj, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Link(obj); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", file, err, want)
		}
	}
	if _, err := Link([]byte("not an ELF")); err == nil {
		t.Error("linked garbage")
	}
}

// TestRuns deploys the linked hello program in LiteSVM and runs it: the loader accepts the file,
// the strings and the table are where the code looks, and every syscall resolves.
func TestRuns(t *testing.T) {
	so := linkHello(t)
	svm := svmtest.Start(t)
	id := key("hello program")
	svm.AddProgram(id, so)
	payer := key("payer")
	svm.SetAccount(payer, svmtest.Account{Lamports: 1e9, Owner: solana.SystemProgramID})
	other := key("other")
	r := svm.Send(payer, solana.NewInstruction(id, solana.AccountMetaSlice{solana.Meta(payer), solana.Meta(other)}, nil))
	if !r.OK {
		t.Fatalf("hello failed: %s\n%s", r.Err, strings.Join(r.Logs, "\n"))
	}
	// twice(2) = 2 * table[2].b = 60; table[3].a = 4; two accounts.
	for _, want := range []string{"Program log: hello from C", "Program log: twice", "Program log: 0x3c, 0x4, 0x2, 0x0, 0x5eed", "Program log: second"} {
		if !contains(r.Logs, want) {
			t.Errorf("no log %q in\n%s", want, strings.Join(r.Logs, "\n"))
		}
	}
}

func key(label string) solana.PublicKey { return solana.PublicKeyFromBytes(hash(label)) }

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func hash(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// syms0 returns the functions of the object the file was linked from (the linked file keeps only
// the entrypoint's symbol): their addresses in the output are .text's address plus their value.
func syms0(t *testing.T, f *elf.File) []elf.Symbol {
	t.Helper()
	obj, err := elf.Open(filepath.Join("testdata", "hello.o"))
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	syms, err := obj.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	text := f.Section(".text")
	for i := range syms {
		syms[i].Value += text.Addr
	}
	return syms
}
