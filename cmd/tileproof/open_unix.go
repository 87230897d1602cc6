//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// openNamedRegular opens a file a person named for reading, a link
// followed, only if it is a regular file: a named pipe does not block the
// open (O_NONBLOCK), and a pipe or a device is refused, never read.
func openNamedRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %s", path, notRegularNamed(info.Mode()))
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

// openInRoot opens the file rel of a directory opened as root, for
// reading, only if it is a regular file: through root, so never a file
// outside it (a sub-directory swapped for a link that leads out is
// refused), the last part not followed if a link (O_NOFOLLOW), and a
// named pipe not waited on (O_NONBLOCK).
func openInRoot(root *os.Root, rel string) (*os.File, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s: %s", rel, notRegular(info.Mode()))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
