package conformance

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// maxPackBytes bounds the files of a case pack read from a folder
// together (the pack built into tileproof is some 240 KB); each is bound
// by strictyaml.DefaultLimits.Bytes.
const maxPackBytes = 64 << 20

// LoadPackDir reads the case pack in the folder dir as LoadPack does,
// through the folder alone and bounded (packDir).
func LoadPackDir(dir string) (*Pack, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return LoadPack(&packDir{FS: root.FS(), root: root})
}

// packDir is a case pack's folder as LoadPackDir reads it (tileproof's
// cases show, cases lint, conform --cases): through an os.Root, so that
// no file outside the folder is read (a link that leads out of it is
// refused; one inside it is followed), and of its files only regular ones
// (batchfiles.ReadInRoot: a named pipe is not waited on, a device such as
// /dev/zero not read), each of at most strictyaml.DefaultLimits.Bytes and
// all together of at most maxPackBytes: the reads are bounded before a
// byte is parsed. Before 2026-12-07 the command read the folder through
// os.DirFS, which follows every link: a link to /etc/passwd had its
// first line quoted in the pack's error, one to /dev/zero read for ever.
type packDir struct {
	fs.FS // the root's: the folder listed, and its files opened, through it
	root  *os.Root
	read  int64 // the bytes read of the pack's files so far
}

// ReadFile reads the pack's file name, a regular file inside the folder,
// within the bounds.
func (p *packDir) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	left := maxPackBytes - p.read
	data, err := batchfiles.ReadInRoot(p.root, name, min(int64(strictyaml.DefaultLimits.Bytes), left))
	if errors.Is(err, batchfiles.ErrTooLarge) && left < int64(strictyaml.DefaultLimits.Bytes) {
		return nil, fmt.Errorf("%s: the pack's files are larger than %d MiB together", name, maxPackBytes>>20)
	}
	p.read += int64(len(data))
	return data, err
}
