package npmpkg

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDir: the source directory when it holds a lockfile, else rel under the module root above the
// working directory (this test's is chain/internal/npmpkg).
func TestDir(t *testing.T) {
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "package-lock.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Dir(src, "chain/devnet/anvil"); err != nil || got != src {
		t.Fatalf("Dir(source with a lockfile) = %q, %v; want %q", got, err, src)
	}
	got, err := Dir(t.TempDir(), "chain/devnet/anvil")
	want, _ := filepath.Abs("../../devnet/anvil")
	if err != nil || got != want {
		t.Fatalf("Dir(source without one) = %q, %v; want %q", got, err, want)
	}
	if _, err := Dir("", "chain/no-such-package"); err == nil {
		t.Fatal("Dir of a directory without package-lock.json succeeded")
	}
}
