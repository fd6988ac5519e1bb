package trade

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestServicesImportNoAdapterOrVenue: the services that serve every chain (trade, market,
// portfolio) import no chain adapter (chain/evm, chain/solana, ...; chain/svm, Solana's address
// encodings, is no adapter) and no venue package: they reach a family's adapter and a venue only
// through the chain package's interfaces, so that a venue is one package and one registration
// (DESIGN section 3).
func TestServicesImportNoAdapterOrVenue(t *testing.T) {
	t.Parallel()
	const module = "github.com/partner-platform/partnerd/"
	for _, dir := range []string{".", "../market", "../portfolio"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				adapter := strings.HasPrefix(path, module+"chain/") && path != module+"chain/svm"
				if adapter || strings.HasPrefix(path, module+"venue/") {
					t.Errorf("%s imports %s", name, path)
				}
			}
		}
	}
}
