//go:build unix

package main

import "syscall"

// oNonBlock keeps an open from waiting on a named pipe (packDir).
const oNonBlock = syscall.O_NONBLOCK
