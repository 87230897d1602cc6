//go:build !unix

package driver

import "os/exec"

func ownGroup(cmd *exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { cmd.Process.Kill() }
