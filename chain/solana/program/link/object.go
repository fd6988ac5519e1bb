package link

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"strings"
)

// object is what the linker reads from one relocatable BPF object (clang -target bpfel -c): its
// one code section, its read-only data sections, its symbols and the relocations of its code.
type object struct {
	text     []byte
	textIdx  elf.SectionIndex
	rodata   []inSection // in file order
	symbols  []elf.Symbol
	textRels []rel
	roRels   map[elf.SectionIndex][]rel // relocations of read-only data (pointers: R_BPF_64_ABS64)
}

// inSection is an input read-only data section.
type inSection struct {
	idx   elf.SectionIndex
	name  string
	align uint64
	data  []byte
}

// shtLLVMAddrsig is LLVM's address-significance table (SHT_LLVM_ADDRSIG): not loaded.
const shtLLVMAddrsig elf.SectionType = 0x6fff4c03

// rel is one entry of .rel.text: an offset into .text, a relocation type and a symbol index
// (into symbols, which starts at the symbol table's entry 1).
type rel struct {
	off uint64
	typ uint32
	sym uint32
}

// BPF relocation types (LLVM's ELFRelocs/BPF.def).
const (
	rBPF64_64       = 1  // ld_imm64: the symbol's address, addend in the instruction's imm
	rBPF64_Relative = 8  // the loader adds the program region's base to the address in the instruction
	rBPF64_Abs64    = 2  // a 64-bit address in data
	rBPF64_32       = 10 // call: a function, by relative offset, or a syscall, by the hash of its name
)

// readObject parses a relocatable BPF object and refuses what a loadable SBPF program cannot hold:
// writable data (.data, .bss), more than one code section, relocated data.
func readObject(b []byte) (*object, error) {
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("read object: %w", err)
	}
	if f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB || f.Machine != elf.EM_BPF || f.Type != elf.ET_REL {
		return nil, fmt.Errorf("read object: want a little-endian 64-bit BPF relocatable object, have %v %v %v %v", f.Class, f.Data, f.Machine, f.Type)
	}
	o := &object{}
	var relText *elf.Section
	for i, s := range f.Sections {
		switch {
		case s.Type == elf.SHT_NULL, s.Type == elf.SHT_STRTAB, s.Type == elf.SHT_SYMTAB,
			s.Type == shtLLVMAddrsig, s.Flags&elf.SHF_ALLOC == 0 && s.Type != elf.SHT_REL:
			// not loaded: names, symbols, notes, debug information
		case s.Type == elf.SHT_REL:
			target := f.Sections[s.Info]
			if target.Flags&elf.SHF_ALLOC == 0 {
				continue // relocations of debug information
			}
			switch {
			case target.Name == ".text":
				relText = s
			case strings.HasPrefix(target.Name, ".rodata"):
				rels, err := readRels(s)
				if err != nil {
					return nil, fmt.Errorf("read object: %w", err)
				}
				if o.roRels == nil {
					o.roRels = map[elf.SectionIndex][]rel{}
				}
				o.roRels[elf.SectionIndex(s.Info)] = rels
			default:
				return nil, fmt.Errorf("read object: relocations of %s are not supported", target.Name)
			}
		case s.Flags&elf.SHF_WRITE != 0 || s.Type == elf.SHT_NOBITS:
			return nil, fmt.Errorf("read object: writable section %s: an SBPF program has no writable globals", s.Name)
		case s.Flags&elf.SHF_EXECINSTR != 0:
			if s.Name != ".text" || o.text != nil {
				return nil, fmt.Errorf("read object: code section %s: want exactly one, named .text", s.Name)
			}
			if o.text, err = s.Data(); err != nil {
				return nil, fmt.Errorf("read object: %s: %w", s.Name, err)
			}
			o.textIdx = elf.SectionIndex(i)
		case s.Type == elf.SHT_PROGBITS && strings.HasPrefix(s.Name, ".rodata"):
			d, err := s.Data()
			if err != nil {
				return nil, fmt.Errorf("read object: %s: %w", s.Name, err)
			}
			o.rodata = append(o.rodata, inSection{idx: elf.SectionIndex(i), name: s.Name, align: max(s.Addralign, 1), data: d})
		default:
			return nil, fmt.Errorf("read object: unsupported loaded section %s (%v)", s.Name, s.Type)
		}
	}
	if o.text == nil {
		return nil, fmt.Errorf("read object: no .text section")
	}
	if o.symbols, err = f.Symbols(); err != nil {
		return nil, fmt.Errorf("read object: symbols: %w", err)
	}
	if relText != nil {
		if o.textRels, err = readRels(relText); err != nil {
			return nil, fmt.Errorf("read object: %w", err)
		}
	}
	return o, nil
}

// readRels reads an SHT_REL section.
func readRels(s *elf.Section) ([]rel, error) {
	d, err := s.Data()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if len(d)%16 != 0 {
		return nil, fmt.Errorf("%s: size %d is not a multiple of 16", s.Name, len(d))
	}
	var rels []rel
	for i := 0; i < len(d); i += 16 {
		info := binary.LittleEndian.Uint64(d[i+8:])
		rels = append(rels, rel{off: binary.LittleEndian.Uint64(d[i:]), typ: uint32(info), sym: uint32(info >> 32)})
	}
	return rels, nil
}

// symbol returns the symbol a relocation names (symbol table indices count the null symbol 0,
// which debug/elf leaves out).
func (o *object) symbol(i uint32) (elf.Symbol, error) {
	if i == 0 || int(i) > len(o.symbols) {
		return elf.Symbol{}, fmt.Errorf("symbol index %d out of range", i)
	}
	return o.symbols[i-1], nil
}
