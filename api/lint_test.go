package api

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestOpenAPILint lints the served document with Redocly CLI's recommended rules and Spectral's
// OpenAPI rules (installed by make test from api/lint's lockfile), and fails on any problem, warnings
// included. Both also check every media-type example against its schema.
func TestOpenAPILint(t *testing.T) {
	bin := filepath.Join("lint", "node_modules", ".bin")
	if _, err := os.Stat(filepath.Join(bin, "redocly")); err != nil {
		if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
			t.Fatalf("the OpenAPI linters are required (PARTNER_TEST_REQUIRE_ALL=1) but not installed: run make test (npm ci in api/lint): %v", err)
		}
		t.Skipf("skipping: the OpenAPI linters are not installed (npm ci --prefix api/lint): %v", err)
	}
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}

	redocly := exec.CommandContext(t.Context(), filepath.Join(bin, "redocly"), "lint", "--config", filepath.Join("lint", "redocly.yaml"), "--format=json", path)
	redocly.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	out, err := redocly.Output()
	var report struct {
		Totals   struct{ Errors, Warnings int }
		Problems []struct {
			RuleID   string `json:"ruleId"`
			Message  string
			Location []struct{ Pointer string }
		}
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil {
		t.Fatalf("redocly lint: %v (%v): %s", err, jerr, out)
	}
	for _, p := range report.Problems {
		where := ""
		if len(p.Location) > 0 {
			where = p.Location[0].Pointer
		}
		t.Errorf("redocly %s at %s: %s", p.RuleID, where, p.Message)
	}
	if report.Totals.Errors+report.Totals.Warnings != len(report.Problems) || err != nil && len(report.Problems) == 0 {
		t.Errorf("redocly lint: %v, totals %+v: %s", err, report.Totals, out)
	}

	spectral := exec.CommandContext(t.Context(), filepath.Join(bin, "spectral"), "lint", "--fail-severity=hint",
		"--ruleset", filepath.Join("lint", ".spectral.yaml"), path)
	if out, err := spectral.CombinedOutput(); err != nil {
		t.Errorf("spectral lint: %v\n%s", err, out)
	}
}
