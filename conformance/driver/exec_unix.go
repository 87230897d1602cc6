//go:build unix

package driver

import (
	"os/exec"
	"syscall"
)

// ownSession runs the command in a session of its own (so a process group
// of its own too), out of reach of the terminal's signals.
func ownSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// killTree ends the process pid and every process it started: its
// process group, and where the system lets the driver find them
// (relatives), its descendants in sessions of their own and the processes
// that carry its tag. They are first stopped, round after round until no
// new one appears, so that none can start another while they are killed.
func killTree(pid int, tag string) {
	stopped := map[int]bool{}
	for round := 0; round < 16; round++ {
		more := false
		for _, q := range relatives(pid, tag) {
			if !stopped[q] {
				syscall.Kill(q, syscall.SIGSTOP)
				stopped[q], more = true, true
			}
		}
		if !more {
			break
		}
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	syscall.Kill(pid, syscall.SIGKILL)
	for q := range stopped {
		syscall.Kill(q, syscall.SIGKILL)
	}
}
