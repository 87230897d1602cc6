//go:build unix

package driver

import (
	"os/exec"
	"syscall"
)

// ownGroup runs the command in a process group of its own, so that
// killProcess ends whatever the shell started too.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

func killProcess(cmd *exec.Cmd) {
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Process.Kill()
}
