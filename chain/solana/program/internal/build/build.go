// Package build compiles the program's C with Debian's clang and links it with our linker.
package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/partner-platform/partnerd/chain/solana/program/link"
)

// ClangFlags compile the program for the SVM: BPF v1 (the SVM sign-extends 32-bit results, where
// later BPF CPUs assume zero-extension), freestanding (no libc: memcpy and memset are ours, over
// the syscalls), every warning an error.
var ClangFlags = []string{"-target", "bpfel", "-mcpu=v1", "-O2", "-ffreestanding", "-fno-builtin", "-fno-stack-protector", "-Wall", "-Werror"}

// Build compiles srcDir/cpmm.c with Debian's clang and links it with our linker into the program's
// shared object. The result depends only on the sources and the compiler.
func Build(ctx context.Context, srcDir string) ([]byte, error) {
	clang, err := exec.LookPath("clang")
	if err != nil {
		return nil, fmt.Errorf("build program: clang is not on PATH (apt-get install clang): %w", err)
	}
	tmp, err := os.MkdirTemp("", "cpmm-build-")
	if err != nil {
		return nil, fmt.Errorf("build program: %w", err)
	}
	defer os.RemoveAll(tmp)
	obj := filepath.Join(tmp, "cpmm.o")
	args := append(append([]string{}, ClangFlags...), "-c", filepath.Join(srcDir, "cpmm.c"), "-o", obj)
	if out, err := exec.CommandContext(ctx, clang, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build program: clang: %w\n%s", err, out)
	}
	b, err := os.ReadFile(obj)
	if err != nil {
		return nil, fmt.Errorf("build program: %w", err)
	}
	so, err := link.Link(b)
	if err != nil {
		return nil, fmt.Errorf("build program: %w", err)
	}
	return so, nil
}
