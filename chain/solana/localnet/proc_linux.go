package localnet

import "syscall"

// sysProcAttr has the kernel kill the validator when this process dies, so a panicking or
// timed-out test leaves no node behind (Close kills it otherwise).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
