package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/partner-platform/partnerd/access"
)

// keyOptions turns partnerd key create's --scopes, --source and --expires into a key's restriction.
// The scopes and sources are checked by the service (against the consumer's scopes, as CIDRs); the
// expiry is parsed here: an RFC 3339 time, or a date: the key works through that day (UTC) and
// stops at the midnight after it, as in the console.
func keyOptions(scopes, sources, expires string) (access.KeyOptions, error) {
	var o access.KeyOptions
	o.Scopes = splitList(scopes)
	o.Sources = splitList(sources)
	if expires = strings.TrimSpace(expires); expires != "" {
		t, err := time.Parse(time.RFC3339, expires)
		if err != nil {
			if t, err = time.Parse(time.DateOnly, expires); err != nil {
				return access.KeyOptions{}, fmt.Errorf("key create: --expires %q: want an RFC 3339 time (2027-01-31T12:00:00Z) or a date (2027-01-31)", expires)
			}
			t = access.ExpiryThrough(t)
		}
		o.ExpiresAt = &t
	}
	return o, nil
}
