//go:build !unix

package main

import (
	"fmt"
	"os"
)

// openNamedRegular opens a file a person named for reading, a link
// followed, only if it is a regular file.
func openNamedRegular(path string) (*os.File, error) {
	f, err := os.Open(path)
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
// there (checked before the open).
func createNoFollow(name string) (*os.File, error) {
	if info, err := os.Lstat(name); err == nil && info.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link: a report is not written through one", name)
	}
	return os.Create(name)
}

// openInRoot opens the file rel of a directory opened as root, for
// reading, only if it is a regular file (checked before and after the
// open); through root, so never a file outside it.
func openInRoot(root *os.Root, rel string) (*os.File, error) {
	if info, err := root.Lstat(rel); err != nil {
		return nil, err
	} else if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s", rel, notRegular(info.Mode()))
	}
	f, err := root.Open(rel)
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
