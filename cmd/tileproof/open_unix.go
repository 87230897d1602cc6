//go:build unix

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens a file found in a directory for reading, only if it
// is a regular file: a link is not followed (O_NOFOLLOW) and a named pipe
// does not block the open (O_NONBLOCK), so a file swapped for either
// after the directory was listed is refused, never read.
func openRegular(path string) (*os.File, error) {
	return openRegularFlags(path, syscall.O_NOFOLLOW, notRegular)
}

// openNamedRegular opens a file a person named for reading, a link
// followed, only if it is a regular file: a named pipe does not block the
// open (O_NONBLOCK), and a pipe or a device is refused, never read.
func openNamedRegular(path string) (*os.File, error) {
	return openRegularFlags(path, 0, notRegularNamed)
}

func openRegularFlags(path string, flags int, why func(fs.FileMode) string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|flags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %s", path, why(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// createNoFollow creates or truncates name for writing, refusing a link
// there (O_NOFOLLOW): a report is written where it was asked, never
// through a link planted at its name.
func createNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o666)
	if errors.Is(err, syscall.ELOOP) {
		err = fmt.Errorf("%s is a symbolic link: a report is not written through one", name)
	}
	return f, err
}
