//go:build !linux

package localnet

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
