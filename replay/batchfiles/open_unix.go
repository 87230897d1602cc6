//go:build unix

package batchfiles

import "syscall"

// The open flags that keep a read from following a link planted at a
// file's name (O_NOFOLLOW) or waiting on a named pipe (O_NONBLOCK).
const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonBlock = syscall.O_NONBLOCK
)
