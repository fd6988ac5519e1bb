//go:build !linux

package anvil

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
