package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// maxPackBytes bounds the files of a case pack read from a folder
// together (the pack built into tileproof is some 240 KB); each is bound
// by strictyaml.DefaultLimits.Bytes.
const maxPackBytes = 64 << 20

// packDir is a case pack's folder as conformance.LoadPack reads it
// (cases show, cases lint, conform --cases): through an os.Root, so that
// no file outside the folder is read (a link that leads out of it is
// refused; one inside it is followed), and of its files only regular ones
// (batchfiles.ReadInRoot: a named pipe is not waited on, a device such as
// /dev/zero not read), each of at most strictyaml.DefaultLimits.Bytes and
// all together of at most maxPackBytes: the reads are bounded before a
// byte is parsed. A file whose name holds a character safetext.Terminal
// escapes is refused: the name is the case's file in every report of a
// run (conform's text report wrote it raw, escape sequences and newlines
// and all). Before 2026-12-07 the folder was read through os.DirFS,
// which follows every link: a link to /etc/passwd had its first line
// quoted in the pack's error, one to /dev/zero read for ever.
type packDir struct {
	fs.FS // the root's: the folder listed, and its files opened, through it
	root  *os.Root
	read  int64 // the bytes read of the pack's files so far
}

// openPackDir opens the case pack in the folder dir; its Close closes it.
func openPackDir(dir string) (*packDir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &packDir{FS: root.FS(), root: root}, nil
}

// Close closes the folder.
func (p *packDir) Close() error { return p.root.Close() }

// ReadFile reads the pack's file name, a regular file inside the folder,
// within the bounds.
func (p *packDir) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	if safetext.Terminal(name) != name {
		// The name would reach every report of a run as the case's file.
		return nil, fmt.Errorf("%s: a case pack's file names hold no control or format character", safetext.Terminal(name))
	}
	left := maxPackBytes - p.read
	data, err := batchfiles.ReadInRoot(p.root, name, min(int64(strictyaml.DefaultLimits.Bytes), left))
	if errors.Is(err, batchfiles.ErrTooLarge) && left < int64(strictyaml.DefaultLimits.Bytes) {
		return nil, fmt.Errorf("%s: the pack's files are larger than %d MiB together", name, maxPackBytes>>20)
	}
	p.read += int64(len(data))
	return data, err
}
