package access

import "time"

// OnChangeForTest calls fn after every change this Service commits on SQLite (the in-process
// announcement the ChangeFeed follows), until the returned function is called.
func (s *Service) OnChangeForTest(fn func()) (cancel func()) { return s.subscribe(fn) }

// SetMinBackoffForTest sets the least wait before the listener reconnects; call it before Run.
func (f *ChangeFeed) SetMinBackoffForTest(d time.Duration) { f.minBackoff = d }

// SetIdleCheckForTest sets how long the listener waits for a notification before checking its
// connection; call it before Run.
func (f *ChangeFeed) SetIdleCheckForTest(d time.Duration) { f.idleCheck = d }
