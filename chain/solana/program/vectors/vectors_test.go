package vectors

import (
	"os"
	"strings"
	"testing"
)

// TestLoad: the embedded file parses, holds the 1,000 cases of agreement, exercises and
// documents every class (here and in README.md), and pins the SDK version the README names.
func TestLoad(t *testing.T) {
	f, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Counts.ByClass["sdk"]; n < 1000 {
		t.Errorf("%d vectors carry the SDK's own figure, want at least 1,000", n)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for cls := range f.Classes {
		if f.Counts.ByClass[cls] == 0 {
			t.Errorf("class %s has no vector", cls)
		}
		if !strings.Contains(string(readme), "`"+cls+"`") {
			t.Errorf("README.md does not document class %s", cls)
		}
	}
	sdk := f.Packages["@raydium-io/raydium-sdk-v2"]
	if sdk.Version == "" || !strings.Contains(string(readme), sdk.Version) {
		t.Errorf("README.md does not name the SDK version %q", sdk.Version)
	}
	ops := map[string]bool{}
	for _, v := range f.Vectors {
		ops[v.Op] = true
		if v.Class == "" && v.SDK["throws"] != "" {
			t.Errorf("%s: the SDK throws, yet the vector has no class", v.ID)
		}
	}
	for _, op := range []string{SwapBaseInput, SwapBaseOutput, Deposit, Withdraw, Initialize} {
		if !ops[op] {
			t.Errorf("no %s vector", op)
		}
	}
}
