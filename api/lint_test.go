package api

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// minVacuumScore is the least quality score vacuum may give the served document.
const minVacuumScore = 90

// TestOpenAPILint lints the served document with Redocly CLI's recommended rules and Spectral's
// OpenAPI rules (installed by make test from api/lint's lockfile), failing on any problem, warnings
// included; both also check every example against its schema. Then vacuum scores it with its
// recommended rules (lint/vacuum.yaml turns off the ones that disagree with the contract, saying
// why): at least minVacuumScore, every remaining violation listed.
func TestOpenAPILint(t *testing.T) {
	doc, err := Document()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join("lint", "node_modules", ".bin")
	npmLinters := func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(bin, "redocly")); err != nil {
			missingLinter(t, "the OpenAPI linters (npm ci --prefix api/lint)", err)
		}
	}

	t.Run("redocly", func(t *testing.T) {
		npmLinters(t)
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
	})

	t.Run("spectral", func(t *testing.T) {
		npmLinters(t)
		spectral := exec.CommandContext(t.Context(), filepath.Join(bin, "spectral"), "lint", "--fail-severity=hint",
			"--ruleset", filepath.Join("lint", ".spectral.yaml"), path)
		if out, err := spectral.CombinedOutput(); err != nil {
			t.Errorf("spectral lint: %v\n%s", err, out)
		}
	})

	t.Run("vacuum", func(t *testing.T) {
		score, results := vacuumReport(t, path)
		for _, r := range results {
			t.Logf("vacuum %s %s at %s: %s", r.RuleSeverity, r.RuleID, r.Path, r.Message)
		}
		t.Logf("vacuum quality score %d/100 (at least %d required), %d violations", score, minVacuumScore, len(results))
		if score < minVacuumScore {
			t.Errorf("vacuum quality score %d, want at least %d: describe what the violations above name", score, minVacuumScore)
		}
	})
}

// vacuumResult is one violation vacuum reports.
type vacuumResult struct {
	RuleID       string `json:"ruleId"`
	RuleSeverity string `json:"ruleSeverity"`
	Path         string `json:"path"`
	Message      string `json:"message"`
}

// vacuumReport runs the vacuum pinned in lint/vacuum/go.mod (go tool; make test downloads its
// modules and builds it) over the document at path with lint/vacuum.yaml, offline: with no module
// proxy, a vacuum that is not in the module cache is missing rather than fetched.
func vacuumReport(t *testing.T, path string) (int, []vacuumResult) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		missingLinter(t, "vacuum (the go command)", err)
	}
	ruleset, err := filepath.Abs(filepath.Join("lint", "vacuum.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	vacuum := func(args ...string) *exec.Cmd {
		cmd := exec.CommandContext(t.Context(), gobin, append([]string{"tool", "vacuum"}, args...)...)
		cmd.Dir = filepath.Join("lint", "vacuum")
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOWORK=off")
		return cmd
	}
	if out, err := vacuum("version", "--no-update-check").CombinedOutput(); err != nil {
		missingLinter(t, "vacuum (make test, or go -C api/lint/vacuum tool vacuum version)", err, string(out))
	}
	out, err := vacuum("report", "--no-update-check", "--no-style", "--ruleset", ruleset, "-o", path).Output()
	var report struct {
		Statistics struct {
			OverallScore int `json:"overallScore"`
		} `json:"statistics"`
		ResultSet struct {
			Results []vacuumResult `json:"results"`
		} `json:"resultSet"`
	}
	if jerr := json.Unmarshal(out, &report); jerr != nil || report.Statistics.OverallScore == 0 {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("vacuum report: %v (%v): %.2000s\n%s", err, jerr, out, stderr)
	}
	return report.Statistics.OverallScore, report.ResultSet.Results
}

// missingLinter skips the test for a linter that is not installed, or fails it when every test
// must run (PARTNER_TEST_REQUIRE_ALL=1, as CI sets).
func missingLinter(t *testing.T, what string, err error, detail ...string) {
	t.Helper()
	if os.Getenv("PARTNER_TEST_REQUIRE_ALL") == "1" {
		t.Fatalf("%s is required (PARTNER_TEST_REQUIRE_ALL=1) but not installed: run make test: %v %s", what, err, detail)
	}
	t.Skipf("skipping: %s is not installed: %v %s", what, err, detail)
}
