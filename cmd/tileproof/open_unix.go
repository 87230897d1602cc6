//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// openRegular opens a file found in a directory for reading, only if it
// is a regular file: a link is not followed (O_NOFOLLOW) and a named pipe
// does not block the open (O_NONBLOCK), so a file swapped for either
// after the directory was listed is refused, never read.
func openRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %s", path, notRegular(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
