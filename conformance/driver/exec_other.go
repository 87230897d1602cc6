//go:build !unix

package driver

import (
	"os"
	"os/exec"
)

func ownSession(cmd *exec.Cmd) {}

// killTree ends the process; without process groups, not its children.
func killTree(pid int, tag string) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
