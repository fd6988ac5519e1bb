package anvil

import "syscall"

// sysProcAttr has the kernel kill anvil when the test binary dies, so a panicking or timed-out
// test leaves no node behind (the cleanup kills it otherwise).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
