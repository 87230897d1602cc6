package batchfiles

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tileproof/tileproof/replay"
)

// afterListing, when set (by a test), runs between listing a directory
// and opening its files: the moment a hostile submitter would swap a
// sub-directory for a link.
var afterListing func()

// listFS is the file system a directory is listed through: the root's
// (a test wraps it to make a listing fail).
var listFS = func(root *os.Root) fs.FS { return root.FS() }

// isPack reports whether the directory rel of fsys is a case pack.
func isPack(fsys fs.FS, rel string) bool {
	info, err := fs.Stat(fsys, path.Join(rel, "pack.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// dir sends the replays of the replay files under the directory arg,
// sorted; manifest.yaml files are not replays, nor is a case pack (a
// directory holding pack.yaml, as conform --observe-out writes beside its
// replays), which is passed to skip, or refused when it is arg itself.
//
// The directory is opened as an os.Root and walked and read through it
// alone, so no file outside it is ever read, whatever is swapped in
// while the batch runs: a sub-directory replaced by a link that leads out is
// refused by the root. Inside it only regular files are read: a link, a
// named pipe or a device there is passed to skip with what it is, and
// never opened (the open refuses a link or pipe swapped in since the
// listing, openInRoot). An entry that cannot be listed or opened is an
// unreadable verdict of its own; the batch goes on.
func (s *sender) dir(arg string, skip func(path, why string)) error {
	root, err := os.OpenRoot(arg) // a directory named through a link is followed
	if err != nil {
		return err
	}
	defer root.Close()
	name := func(rel string) string { return filepath.Join(arg, filepath.FromSlash(rel)) }
	var files []string
	txt := ""                    // the first .txt file, as a hallabois recording is named
	broken := map[string]error{} // the entries that cannot be listed
	fsys := listFS(root)
	err = fs.WalkDir(fsys, ".", func(rel string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && rel == ".":
			return err
		case err != nil:
			broken[rel] = err
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir() && isPack(fsys, rel):
			if rel == "." {
				return fmt.Errorf("%s is a case pack (it holds pack.yaml), not replays: tileproof cases lint %[1]s checks it", arg)
			}
			skip(name(rel), "a case pack (it holds pack.yaml): cases, not replays")
			return fs.SkipDir
		case !d.IsDir() && replayExt(rel) && strings.HasPrefix(path.Base(rel), "."):
			// Read as a replay but for its hidden name: named as skipped,
			// so that a submission cannot leave an audit unseen.
			skip(name(rel), "a hidden file (its name begins with a dot): inside a directory it is not read (name it on the command line to read it)")
			return nil
		case d.IsDir() || !IsReplayFile(rel):
			if txt == "" && path.Ext(rel) == ".txt" {
				txt = rel
			}
			return nil
		case !d.Type().IsRegular():
			skip(name(rel), notRegular(d.Type()))
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return err
	}
	if len(files) == 0 && len(broken) == 0 && txt != "" {
		return fmt.Errorf("%s: no replay files (.yaml, .yml, .json, .jsonl), but .txt files such as %s: a hallabois recording becomes a replay with tileproof import hallabois FILE... -o DIR (docs/peers.md)", arg, name(txt))
	}
	if len(files) == 0 && len(broken) == 0 {
		return fmt.Errorf("%s: no replay files (.yaml, .yml, .json, .jsonl)", arg)
	}
	if afterListing != nil {
		afterListing()
	}
	all := slices.AppendSeq(files, maps.Keys(broken))
	slices.SortFunc(all, func(a, b string) int { return strings.Compare(name(a), name(b)) })
	for _, rel := range all {
		var ok bool
		if err, bad := broken[rel]; bad {
			ok = s.send(replay.Input{Name: name(rel), Err: fmt.Errorf("cannot be listed: %v", err)})
		} else if f, err := openInRoot(root, path.Clean(rel)); err != nil {
			ok = s.send(replay.Input{Name: name(rel), Err: err})
		} else {
			ok = s.opened(name(rel), f)
			f.Close()
		}
		if !ok {
			return s.ctx.Err()
		}
	}
	return nil
}
