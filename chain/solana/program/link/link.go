// Package link turns one relocatable BPF object, as Debian's clang writes it
// (-target bpfel -mcpu=v1 -O2 -c), into a loadable SBPF v0 program: a shared-object ELF with
// .text, .rodata, .dynamic, .dynsym, .dynstr and .rel.dyn, as the Solana toolchain's linker lays
// one out and as Agave's loader (solana-sbpf's lenient ELF parser) reads it.
//
// What it does with the object's relocations:
//   - ld_imm64 of read-only data (R_BPF_64_64): the data's address in the output (file offset =
//     virtual address) goes into the instruction, with an R_BPF_64_RELATIVE dynamic relocation so
//     the loader moves it into the program region (0x1_0000_0000 + address);
//   - a call of a function in .text (R_BPF_64_32): the relative offset, as clang writes for static
//     functions itself;
//   - a call of a syscall (R_BPF_64_32 against an undefined symbol): the instruction keeps imm -1
//     and gets an R_BPF_64_32 dynamic relocation against an undefined dynamic symbol of that name;
//     the loader writes the Murmur3 hash of the name there (see Syscalls).
//
// The output depends only on the object's bytes: linking the same object twice gives the same file.
package link

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
)

// ProgramRegion is where the loader maps the program's file: address A of the file is at
// ProgramRegion + A in the VM.
const ProgramRegion = 0x1_0000_0000

// Entry is the function the loader starts a program at.
const Entry = "entrypoint"

// Layout constants of the output.
const (
	ehdrSize = 64
	phdrSize = 56
	shdrSize = 64
	symSize  = 24
	relSize  = 16
	dynSize  = 16
	insnSize = 8
)

// dynamic relocation of the output
type dynRel struct {
	off uint64
	typ uint32
	sym uint32
}

// Link links a relocatable BPF object into a loadable SBPF v0 shared object.
func Link(obj []byte) ([]byte, error) {
	o, err := readObject(obj)
	if err != nil {
		return nil, fmt.Errorf("link: %w", err)
	}
	out, err := link(o)
	if err != nil {
		return nil, fmt.Errorf("link: %w", err)
	}
	return out, nil
}

func align(n, a uint64) uint64 { return (n + a - 1) / a * a }

func link(o *object) ([]byte, error) {
	const nPhdr = 4 // text, rodata, dynamic data, PT_DYNAMIC
	textOff := align(ehdrSize+nPhdr*phdrSize, 8)
	text := bytes.Clone(o.text)

	// .rodata: the object's read-only sections in order, each at its alignment.
	rodataOff := align(textOff+uint64(len(text)), 8)
	var rodata []byte
	roAddr := map[elf.SectionIndex]uint64{}
	for _, s := range o.rodata {
		for uint64(len(rodata))%s.align != 0 {
			rodata = append(rodata, 0)
		}
		roAddr[s.idx] = rodataOff + uint64(len(rodata))
		rodata = append(rodata, s.data...)
	}

	// Pointers in read-only data (R_BPF_64_ABS64) get their final address in the program region
	// (the loader maps the file's address A at ProgramRegion + A), so they need no dynamic relocation.
	for _, s := range o.rodata {
		for _, r := range o.roRels[s.idx] {
			if r.typ != rBPF64_Abs64 || r.off+8 > uint64(len(s.data)) {
				return nil, fmt.Errorf("relocation at %s+%#x: unsupported type %d", s.name, r.off, r.typ)
			}
			sym, err := o.symbol(r.sym)
			if err != nil {
				return nil, fmt.Errorf("relocation at %s+%#x: %w", s.name, r.off, err)
			}
			base, ok := roAddr[sym.Section]
			if !ok {
				return nil, fmt.Errorf("relocation at %s+%#x: %q is not in read-only data", s.name, r.off, sym.Name)
			}
			at := roAddr[s.idx] - rodataOff + r.off
			addend := binary.LittleEndian.Uint64(rodata[at:])
			binary.LittleEndian.PutUint64(rodata[at:], ProgramRegion+base+sym.Value+addend)
		}
	}

	// The entrypoint.
	var entry *elf.Symbol
	for i := range o.symbols {
		s := &o.symbols[i]
		if s.Name == Entry && s.Section == o.textIdx && elf.ST_TYPE(s.Info) == elf.STT_FUNC && elf.ST_BIND(s.Info) == elf.STB_GLOBAL {
			entry = s
		}
	}
	if entry == nil {
		return nil, fmt.Errorf("no global function %q in .text", Entry)
	}

	// Relocate the code.
	var relative []dynRel
	syscallSites := map[string][]uint64{}
	for _, r := range o.textRels {
		if r.off%insnSize != 0 || r.off+insnSize > uint64(len(text)) {
			return nil, fmt.Errorf("relocation at .text+%#x: not an instruction", r.off)
		}
		sym, err := o.symbol(r.sym)
		if err != nil {
			return nil, fmt.Errorf("relocation at .text+%#x: %w", r.off, err)
		}
		insn := text[r.off:]
		switch r.typ {
		case rBPF64_64:
			if insn[0] != 0x18 || r.off+2*insnSize > uint64(len(text)) {
				return nil, fmt.Errorf("relocation at .text+%#x: R_BPF_64_64 on opcode %#x, want lddw", r.off, insn[0])
			}
			var base uint64
			switch {
			case sym.Section == o.textIdx:
				base = textOff
			case roAddr[sym.Section] != 0:
				base = roAddr[sym.Section]
			default:
				return nil, fmt.Errorf("relocation at .text+%#x: %q is not in .text or read-only data", r.off, sym.Name)
			}
			addend := uint64(binary.LittleEndian.Uint32(insn[4:])) | uint64(binary.LittleEndian.Uint32(insn[12:]))<<32
			addr := base + sym.Value + addend
			binary.LittleEndian.PutUint32(insn[4:], uint32(addr))
			binary.LittleEndian.PutUint32(insn[12:], uint32(addr>>32))
			relative = append(relative, dynRel{off: textOff + r.off, typ: rBPF64_Relative})
		case rBPF64_32:
			if insn[0] != 0x85 {
				return nil, fmt.Errorf("relocation at .text+%#x: R_BPF_64_32 on opcode %#x, want call", r.off, insn[0])
			}
			switch {
			case sym.Section == elf.SHN_UNDEF:
				if !Syscalls[sym.Name] {
					return nil, fmt.Errorf("undefined symbol %q (called at .text+%#x) is no syscall", sym.Name, r.off)
				}
				insn[1] &^= 0xf0 // src 0: a syscall
				binary.LittleEndian.PutUint32(insn[4:], 0xffffffff)
				syscallSites[sym.Name] = append(syscallSites[sym.Name], textOff+r.off)
			case sym.Section == o.textIdx && elf.ST_TYPE(sym.Info) == elf.STT_FUNC:
				if sym.Value%insnSize != 0 || sym.Value >= uint64(len(text)) {
					return nil, fmt.Errorf("call at .text+%#x: %q at %#x is not an instruction", r.off, sym.Name, sym.Value)
				}
				rel := int64(sym.Value/insnSize) - int64(r.off/insnSize) - 1
				insn[1] = insn[1]&0x0f | 0x10 // src 1: a call relative to the next instruction
				binary.LittleEndian.PutUint32(insn[4:], uint32(int32(rel)))
			default:
				return nil, fmt.Errorf("call at .text+%#x: %q is neither a function in .text nor undefined", r.off, sym.Name)
			}
		default:
			return nil, fmt.Errorf("relocation at .text+%#x: unsupported type %d", r.off, r.typ)
		}
	}
	// Every call left with imm -1 must have become a syscall relocation above.
	for i := 0; i+insnSize <= len(text); i += insnSize {
		if text[i] == 0x18 {
			i += insnSize
			continue
		}
		if text[i] == 0x85 && int32(binary.LittleEndian.Uint32(text[i+4:])) == -1 && !hasSite(syscallSites, textOff+uint64(i)) {
			return nil, fmt.Errorf("call at .text+%#x has no target", i)
		}
	}

	// Dynamic symbols: null, the entrypoint, then the syscalls by name.
	names := make([]string, 0, len(syscallSites))
	for n := range syscallSites {
		names = append(names, n)
	}
	sort.Strings(names)
	dynstr := []byte{0}
	strOff := func(s string) uint32 {
		off := uint32(len(dynstr))
		dynstr = append(append(dynstr, s...), 0)
		return off
	}
	const textShndx = 1
	var dynsym []byte
	putSym := func(name uint32, info byte, shndx uint16, value, size uint64) {
		var b [symSize]byte
		binary.LittleEndian.PutUint32(b[0:], name)
		b[4] = info
		binary.LittleEndian.PutUint16(b[6:], shndx)
		binary.LittleEndian.PutUint64(b[8:], value)
		binary.LittleEndian.PutUint64(b[16:], size)
		dynsym = append(dynsym, b[:]...)
	}
	putSym(0, 0, 0, 0, 0)
	putSym(strOff(Entry), byte(elf.STB_GLOBAL)<<4|byte(elf.STT_FUNC), textShndx, textOff+entry.Value, entry.Size)
	var rels []dynRel
	sort.Slice(relative, func(i, j int) bool { return relative[i].off < relative[j].off })
	rels = append(rels, relative...)
	var calls []dynRel
	for i, n := range names {
		putSym(strOff(n), byte(elf.STB_GLOBAL)<<4|byte(elf.STT_NOTYPE), uint16(elf.SHN_UNDEF), 0, 0)
		for _, off := range syscallSites[n] {
			calls = append(calls, dynRel{off: off, typ: rBPF64_32, sym: uint32(i + 2)})
		}
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].off < calls[j].off })
	rels = append(rels, calls...)

	// Place the dynamic data: .dynamic, .dynsym, .dynstr, .rel.dyn.
	dynamicOff := align(rodataOff+uint64(len(rodata)), 8)
	dynTags := [][2]uint64{
		{uint64(elf.DT_FLAGS), uint64(elf.DF_TEXTREL)},
		{uint64(elf.DT_REL), 0}, // filled below
		{uint64(elf.DT_RELSZ), uint64(len(rels) * relSize)},
		{uint64(elf.DT_RELENT), relSize},
		{uint64(elf.DT_RELCOUNT), uint64(len(relative))},
		{uint64(elf.DT_SYMTAB), 0},
		{uint64(elf.DT_SYMENT), symSize},
		{uint64(elf.DT_STRTAB), 0},
		{uint64(elf.DT_STRSZ), uint64(len(dynstr))},
		{uint64(elf.DT_NULL), 0},
	}
	if len(rels) == 0 {
		dynTags = append(dynTags[:1], dynTags[5:]...)
	}
	dynamicSize := uint64(len(dynTags) * dynSize)
	dynsymOff := dynamicOff + dynamicSize
	dynstrOff := dynsymOff + uint64(len(dynsym))
	relOff := align(dynstrOff+uint64(len(dynstr)), 8)
	relBytes := make([]byte, 0, len(rels)*relSize)
	for _, r := range rels {
		relBytes = binary.LittleEndian.AppendUint64(relBytes, r.off)
		relBytes = binary.LittleEndian.AppendUint64(relBytes, uint64(r.sym)<<32|uint64(r.typ))
	}
	var dynamic []byte
	for _, t := range dynTags {
		v := t[1]
		switch elf.DynTag(t[0]) {
		case elf.DT_REL:
			v = relOff
		case elf.DT_SYMTAB:
			v = dynsymOff
		case elf.DT_STRTAB:
			v = dynstrOff
		}
		dynamic = binary.LittleEndian.AppendUint64(dynamic, t[0])
		dynamic = binary.LittleEndian.AppendUint64(dynamic, v)
	}
	dynEnd := relOff + uint64(len(relBytes))

	// Section names and headers.
	shstrtab := []byte{0}
	shName := func(s string) uint32 {
		off := uint32(len(shstrtab))
		shstrtab = append(append(shstrtab, s...), 0)
		return off
	}
	shstrOff := dynEnd
	type shdr struct {
		name               uint32
		typ                elf.SectionType
		flags              elf.SectionFlag
		addr, off, size    uint64
		link, info         uint32
		addralign, entsize uint64
	}
	const (
		dynsymShndx = 4
		dynstrShndx = 5
	)
	shdrs := []shdr{
		{},
		{name: shName(".text"), typ: elf.SHT_PROGBITS, flags: elf.SHF_ALLOC | elf.SHF_EXECINSTR, addr: textOff, off: textOff, size: uint64(len(text)), addralign: 8},
		{name: shName(".rodata"), typ: elf.SHT_PROGBITS, flags: elf.SHF_ALLOC, addr: rodataOff, off: rodataOff, size: uint64(len(rodata)), addralign: 8},
		{name: shName(".dynamic"), typ: elf.SHT_DYNAMIC, flags: elf.SHF_ALLOC | elf.SHF_WRITE, addr: dynamicOff, off: dynamicOff, size: dynamicSize, link: dynstrShndx, addralign: 8, entsize: dynSize},
		{name: shName(".dynsym"), typ: elf.SHT_DYNSYM, flags: elf.SHF_ALLOC, addr: dynsymOff, off: dynsymOff, size: uint64(len(dynsym)), link: dynstrShndx, info: 1, addralign: 8, entsize: symSize},
		{name: shName(".dynstr"), typ: elf.SHT_STRTAB, flags: elf.SHF_ALLOC, addr: dynstrOff, off: dynstrOff, size: uint64(len(dynstr)), addralign: 1},
		{name: shName(".rel.dyn"), typ: elf.SHT_REL, flags: elf.SHF_ALLOC, addr: relOff, off: relOff, size: uint64(len(relBytes)), link: dynsymShndx, addralign: 8, entsize: relSize},
	}
	shstrIdx := len(shdrs)
	shdrs = append(shdrs, shdr{name: shName(".shstrtab"), typ: elf.SHT_STRTAB, off: shstrOff, addralign: 1})
	shdrs[shstrIdx].size = uint64(len(shstrtab))
	shOff := align(shstrOff+uint64(len(shstrtab)), 8)

	// Write the file.
	buf := make([]byte, shOff+uint64(len(shdrs))*shdrSize)
	copy(buf[0:], elf.ELFMAG)
	buf[elf.EI_CLASS] = byte(elf.ELFCLASS64)
	buf[elf.EI_DATA] = byte(elf.ELFDATA2LSB)
	buf[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	buf[elf.EI_OSABI] = byte(elf.ELFOSABI_NONE)
	le := binary.LittleEndian
	le.PutUint16(buf[16:], uint16(elf.ET_DYN))
	le.PutUint16(buf[18:], uint16(elf.EM_BPF))
	le.PutUint32(buf[20:], uint32(elf.EV_CURRENT))
	le.PutUint64(buf[24:], textOff+entry.Value) // e_entry
	le.PutUint64(buf[32:], ehdrSize)            // e_phoff
	le.PutUint64(buf[40:], shOff)               // e_shoff
	le.PutUint32(buf[48:], 0)                   // e_flags: SBPF v0
	le.PutUint16(buf[52:], ehdrSize)
	le.PutUint16(buf[54:], phdrSize)
	le.PutUint16(buf[56:], nPhdr)
	le.PutUint16(buf[58:], shdrSize)
	le.PutUint16(buf[60:], uint16(len(shdrs)))
	le.PutUint16(buf[62:], uint16(shstrIdx))
	phdrs := []struct {
		typ   elf.ProgType
		flags elf.ProgFlag
		off   uint64
		size  uint64
	}{
		{elf.PT_LOAD, elf.PF_R | elf.PF_X, textOff, uint64(len(text))},
		{elf.PT_LOAD, elf.PF_R, rodataOff, uint64(len(rodata))},
		{elf.PT_LOAD, elf.PF_R, dynamicOff, dynEnd - dynamicOff},
		{elf.PT_DYNAMIC, elf.PF_R | elf.PF_W, dynamicOff, dynamicSize},
	}
	for i, p := range phdrs {
		b := buf[ehdrSize+i*phdrSize:]
		le.PutUint32(b[0:], uint32(p.typ))
		le.PutUint32(b[4:], uint32(p.flags))
		le.PutUint64(b[8:], p.off)   // p_offset
		le.PutUint64(b[16:], p.off)  // p_vaddr
		le.PutUint64(b[24:], p.off)  // p_paddr
		le.PutUint64(b[32:], p.size) // p_filesz
		le.PutUint64(b[40:], p.size) // p_memsz
		le.PutUint64(b[48:], 8)      // p_align
	}
	copy(buf[textOff:], text)
	copy(buf[rodataOff:], rodata)
	copy(buf[dynamicOff:], dynamic)
	copy(buf[dynsymOff:], dynsym)
	copy(buf[dynstrOff:], dynstr)
	copy(buf[relOff:], relBytes)
	copy(buf[shstrOff:], shstrtab)
	for i, s := range shdrs {
		b := buf[shOff+uint64(i)*shdrSize:]
		le.PutUint32(b[0:], s.name)
		le.PutUint32(b[4:], uint32(s.typ))
		le.PutUint64(b[8:], uint64(s.flags))
		le.PutUint64(b[16:], s.addr)
		le.PutUint64(b[24:], s.off)
		le.PutUint64(b[32:], s.size)
		le.PutUint32(b[40:], s.link)
		le.PutUint32(b[44:], s.info)
		le.PutUint64(b[48:], s.addralign)
		le.PutUint64(b[56:], s.entsize)
	}
	return buf, nil
}

func hasSite(sites map[string][]uint64, off uint64) bool {
	for _, offs := range sites {
		for _, o := range offs {
			if o == off {
				return true
			}
		}
	}
	return false
}
