// Command cpmmbuild rebuilds chain/solana/program/raydium_cpmm.so from chain/solana/program/src
// (make program runs it from the module root): Debian's clang, then our linker.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/partner-platform/partnerd/chain/solana/program/internal/build"
)

func main() {
	src := flag.String("src", "chain/solana/program/src", "the program's C sources")
	out := flag.String("o", "chain/solana/program/raydium_cpmm.so", "the shared object to write")
	flag.Parse()
	so, err := build.Build(context.Background(), *src)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, so, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, fmt.Errorf("write %s: %w", *out, err))
		os.Exit(1)
	}
}
