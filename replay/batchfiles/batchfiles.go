// Package batchfiles reads the replays a command line names, for a batch
// ([replay.VerifyBatch]): files as given, the replay files under
// directories (walked through an os.Root, so that nothing outside is read),
// the lines of JSON Lines files and of stdin; every replay weighed against
// one memory budget before it is read.
package batchfiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/jsonl"
)

// MaxReplaySize bounds one replay file or line, far above a real game's
// (docs/security.md).
const MaxReplaySize = 64 << 20

// Read sends every replay named by args to out, in order: files, the
// replay files under directories (sorted; manifest.yaml files are not
// replays), the lines of .jsonl files, and with "-" the lines of stdin.
// It stops between replays once ctx is done, returning ctx's error.
//
// Every arg is looked at before any is read: one that does not exist is
// the error, and nothing is sent (a misspelt last argument does not cost
// the batch before it, and leave it without its summary).
//
// A file named in args is read as given (a link followed, a pipe read: a
// shell's <(...) is one). Inside a directory only regular files are read:
// a link, a named pipe or a device there is passed to skip with what it
// is, and never opened, so that a directory of submissions cannot make
// the batch read a file outside it or wait on a pipe.
func Read(ctx context.Context, args []string, stdin io.Reader, out chan<- replay.Input, skip func(path, why string)) error {
	s := &sender{ctx: ctx, out: out, limit: MaxReplaySize}
	infos := make([]fs.FileInfo, len(args))
	for i, arg := range args {
		if arg != "-" {
			info, err := os.Stat(arg)
			if err != nil {
				return err
			}
			infos[i] = info
		}
	}
	for i, arg := range args {
		if info := infos[i]; arg == "-" {
			s.lines("stdin", stdin)
		} else if !info.IsDir() {
			s.file(arg)
		} else if err := s.dir(arg, skip); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// sender sends the replays of a batch until its context is done.
type sender struct {
	ctx   context.Context
	out   chan<- replay.Input
	limit int // the longest line of JSON Lines
}

// send sends in, reporting whether the batch goes on; an input not sent
// gives its memory back.
func (s *sender) send(in replay.Input) bool {
	select {
	case s.out <- in:
		return true
	case <-s.ctx.Done():
		if in.Release != nil {
			in.Release()
		}
		return false
	}
}

// IsReplayFile reports whether a file inside a directory is read as a
// replay: .yaml, .yml, .json or .jsonl, not manifest.yaml, not hidden.
func IsReplayFile(path string) bool {
	base := filepath.Base(path)
	return replayExt(base) && base != "manifest.yaml" && !strings.HasPrefix(base, ".")
}

// replayExt reports whether a file name ends as a replay's does.
func replayExt(base string) bool {
	return slices.Contains([]string{".yaml", ".yml", ".json", ".jsonl"}, filepath.Ext(base))
}

// notRegular says what a file that is not a regular one is, and why it
// is not read.
func notRegular(m fs.FileMode) string {
	return describe(m) + "; inside a directory only regular files are read (name it on the command line to read it)"
}

// describe says what a file that is not a regular one is.
func describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// file sends the replays of one file named on the command line, read as
// given: the file, or each line of a .jsonl file.
func (s *sender) file(path string) {
	f, err := os.Open(path)
	if err != nil {
		s.send(replay.Input{Name: path, Err: err})
		return
	}
	defer f.Close()
	s.opened(path, f)
}

// opened sends the replays of the open file f, named path.
func (s *sender) opened(path string, f *os.File) bool {
	if strings.HasSuffix(path, ".jsonl") {
		return s.lines(path, f)
	}
	size := int64(MaxReplaySize)
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		if info.Size() > MaxReplaySize {
			// Refused by its size, unread: reading it to the bound took
			// 64 MiB from the disk, some 170 MB of memory and the
			// heaviest weight of the budget, for the same verdict.
			return s.send(replay.Input{Name: path, Err: tooLarge(MaxReplaySize)})
		}
		size = info.Size()
	}
	release := budget.acquire(replayWeight(size)) // before the file is read
	data, err := ReadAtMost(f, MaxReplaySize)
	return s.send(replay.Input{Name: path, Data: data, Err: err, Release: release})
}

// lines sends each non-blank line of r as a replay named NAME:LINE
// (jsonl.Read), each weighed once read.
func (s *sender) lines(name string, r io.Reader) bool {
	ok := true
	jsonl.Read(name, r, s.limit, func(in replay.Input) bool {
		if in.Data != nil {
			in.Data = append([]byte(nil), in.Data...) // Read's bytes are its own once send returns
			in.Release = budget.acquire(replayWeight(int64(len(in.Data))))
		}
		ok = s.send(in)
		return ok
	}, nil)
	return ok
}

// ReadRegular reads a file a person named, only if it is a regular file
// (a link followed; a named pipe is not waited on, and a pipe or a device
// is refused, never read), and at most limit bytes of it: more is an
// error.
func ReadRegular(name string, limit int64) ([]byte, error) {
	f, err := openRegular(name)
	return readOpened(name, limit, f, err)
}

// ReadInRoot reads the file name of the directory opened as root, only
// if it is a regular file (through root, so never a file outside it, a
// link inside it followed; a named pipe is not waited on, a device never
// read), and at most limit bytes of it: more is an error, "NAME: larger
// than N MiB".
func ReadInRoot(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|oNonBlock, 0)
	f, err = regularOnly(f, err, func(m fs.FileMode) error {
		return fmt.Errorf("%s: %s, not a regular file: inside a folder only regular files are read", name, describe(m))
	})
	return readOpened(name, limit, f, err)
}

// readOpened reads the file f named name, opened with err, at most limit
// bytes of it (more is an error naming it), and closes it.
func readOpened(name string, limit int64, f *os.File, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadAtMost(f, limit)
	if err != nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return data, err
}

// ReadAtMost reads r to its end, at most limit bytes of it: more is an
// error, "larger than N MiB" (N bytes for a limit under 1 MiB), with the
// limit's bytes and one more returned.
func ReadAtMost(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = tooLarge(limit)
	}
	return data, err
}

// ErrTooLarge is what the error of an input past its bound is
// (errors.Is); the error itself says "larger than N MiB".
var ErrTooLarge = errors.New("larger than its bound")

// tooLarge is the error of an input past its limit in bytes: "larger
// than N MiB" (N bytes for a limit under 1 MiB).
type tooLarge int64

func (limit tooLarge) Error() string {
	if limit >= 1<<20 {
		return fmt.Sprintf("larger than %d MiB", limit>>20)
	}
	return fmt.Sprintf("larger than %d bytes", limit)
}

// Is makes it ErrTooLarge.
func (tooLarge) Is(target error) bool { return target == ErrTooLarge }

// openInRoot opens the file rel of a directory opened as root, for
// reading, only if it is a regular file: through root, so never a file
// outside it (a sub-directory swapped for a link that leads out is
// refused), the last part not followed if a link, and a named pipe not
// waited on.
func openInRoot(root *os.Root, rel string) (*os.File, error) {
	if oNoFollow == 0 { // no O_NOFOLLOW: looked at before the open too
		if info, err := root.Lstat(rel); err != nil {
			return nil, err
		} else if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %s", rel, notRegular(info.Mode()))
		}
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|oNoFollow|oNonBlock, 0)
	return regularOnly(f, err, func(m fs.FileMode) error { return fmt.Errorf("%s: %s", rel, notRegular(m)) })
}

// regularOnly returns the file f, opened with err, if it is a regular
// file; otherwise it closes it and returns the error notRegular makes of
// its mode.
func regularOnly(f *os.File, err error, notRegular func(fs.FileMode) error) (*os.File, error) {
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = notRegular(info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// SameAsInput returns the one of inputs that the file out is, under any
// name or link (os.SameFile), or "" when it is none of them or does not
// exist yet: an output written there would replace what is read. An
// input that is "" or "-" (stdin), or cannot be looked at, is no file.
func SameAsInput(out string, inputs []string) string {
	oinfo, err := os.Stat(out)
	if err != nil {
		return ""
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if info, err := os.Stat(in); err == nil && os.SameFile(oinfo, info) {
			return in
		}
	}
	return ""
}

// openRegular opens the file name for reading, a regular file only: a
// named pipe is not waited on, a device not read.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|oNonBlock, 0)
	return regularOnly(f, err, func(m fs.FileMode) error { return fmt.Errorf("%s: %s; only a regular file is read", name, describe(m)) })
}

// ReadJSONLine reads one replay of the JSON Lines file named file, a
// regular file only (as ReadRegular): the one on line n, which Read names
// FILE:N, or with n 0 the file's one replay, when it holds one. It
// returns the replay's name, FILE:LINE, and its bytes; a line is bounded
// as Read bounds it.
func ReadJSONLine(file string, n int) (string, []byte, error) {
	f, err := openRegular(file)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	var name, first string
	var data []byte
	count := 0
	jsonl.Read(file, f, MaxReplaySize, func(in replay.Input) bool {
		count++
		if count == 1 {
			first = in.Name
		}
		if n == 0 && count > 1 {
			return false
		}
		if n == 0 || in.Name == file+":"+strconv.Itoa(n) {
			name, data, err = in.Name, append([]byte(nil), in.Data...), in.Err
		}
		return n == 0 || name == ""
	}, nil)
	switch {
	case n == 0 && count > 1:
		return "", nil, fmt.Errorf("%s holds a replay a line: name one as verify does, FILE:LINE (%s, say)", file, first)
	case name == "" && n == 0:
		return "", nil, fmt.Errorf("%s holds no replay", file)
	case name == "":
		return "", nil, fmt.Errorf("%s has no replay on line %d", file, n)
	case err != nil:
		return name, nil, fmt.Errorf("%s: %w", name, err)
	}
	return name, data, nil
}
