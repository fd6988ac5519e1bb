package main

import (
	"strings"
	"testing"
)

func TestServeConfigOperatorTwoFactor(t *testing.T) {
	for _, tc := range []struct {
		value   string
		want    bool
		problem string
	}{
		{"", false, ""},
		{"optional", false, ""},
		{"required", true, ""},
		{"yes", false, "PARTNER_CONSOLE_OPERATOR_2FA: want required or optional"},
		{"REQUIRED", false, "PARTNER_CONSOLE_OPERATOR_2FA"},
	} {
		cfg, err := serveConfig(nil, func(name string) string {
			if name == "PARTNER_CONSOLE_OPERATOR_2FA" {
				return tc.value
			}
			return ""
		})
		switch {
		case tc.problem != "" && (err == nil || !strings.Contains(err.Error(), tc.problem)):
			t.Errorf("%q: error %v, want %q", tc.value, err, tc.problem)
		case tc.problem == "" && err != nil:
			t.Errorf("%q: %v", tc.value, err)
		case err == nil && cfg.OperatorTwoFactor != tc.want:
			t.Errorf("%q: OperatorTwoFactor %v, want %v", tc.value, cfg.OperatorTwoFactor, tc.want)
		}
	}
}
