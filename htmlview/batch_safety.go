package htmlview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tileproof/tileproof/replay/batchfiles"
)

// The safety of verify --report's output (issue 25, item 9): it writes
// only where it was asked, never through a link, and never over what it
// is about to read.

// checkReportNotInput refuses a report path that is one of the inputs
// (os.SameFile: the same file under any name or link), or a replay file
// inside an input directory: creating the report would truncate it before
// it is read.
func checkReportNotInput(report string, inputs []string) error {
	if _, err := os.Stat(report); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if in := batchfiles.SameAsInput(report, inputs); in != "" {
		return fmt.Errorf("%s is the input %s: writing the report would destroy it before it is read", report, in)
	}
	rabs, err := filepath.Abs(report)
	if err != nil {
		return err
	}
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		info, err := os.Stat(in)
		if err != nil {
			continue // listing the inputs says so
		}
		if info.IsDir() && batchfiles.IsReplayFile(report) {
			dabs, err := filepath.Abs(in)
			if err == nil && within(dabs, rabs) {
				return fmt.Errorf("%s is a replay file inside the input directory %s: writing the report would replace it", report, in)
			}
		}
	}
	return nil
}

// within reports whether path is under dir (both absolute and clean).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}

// createReport opens the report file name for writing, creating it when
// it is not there but not emptying an earlier report (Finish does, when
// the new one is complete; created says whether this run made the file),
// not through a link (a link there is refused: Lstat, then O_NOFOLLOW
// where there is one), and its
// pages' directory dir, which must be a directory of its own, not a link
// to one elsewhere: pages are written there and page-like files deleted.
// The directory is returned opened as an os.Root, so that what is written
// and removed through it stays inside it.
func createReport(name, dir string) (f *os.File, root *os.Root, created bool, err error) {
	info, err := os.Lstat(name)
	if err == nil && info.Mode()&os.ModeSymlink != 0 {
		return nil, nil, false, fmt.Errorf("%s is a symbolic link: a report is not written through one", name)
	}
	created = errors.Is(err, fs.ErrNotExist)
	f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|oNoFollow, 0o666)
	if err != nil {
		return nil, nil, false, err
	}
	fail := func(err error) (*os.File, *os.Root, bool, error) {
		f.Close()
		if created {
			os.Remove(name)
		}
		return nil, nil, false, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fail(err)
	}
	info, err = os.Lstat(dir)
	if err != nil {
		return fail(err)
	}
	if !info.IsDir() {
		return fail(fmt.Errorf("%s is %s, not a directory of its own: the report's pages go there (remove it, or name the report otherwise)", dir, describeMode(info.Mode())))
	}
	if root, err = os.OpenRoot(dir); err != nil {
		return fail(err)
	}
	return f, root, created, nil
}

// describeMode says what a file that is not a directory is.
func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a file"
	}
	return "a special file"
}
