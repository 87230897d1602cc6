package batchfiles

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"

	"github.com/tileproof/tileproof/replay"
)

// afterListing, when set (by a test), runs between listing a directory
// and opening its files: the moment a hostile submitter would swap a
// sub-directory for a link.
var afterListing func()

// listFS is the file system a directory is listed through: the root's
// (a test wraps it to make a listing fail).
var listFS = func(root *os.Root) fs.FS { return root.FS() }

// dir sends the replays of the replay files under the directory arg,
// sorted; manifest.yaml files are not replays.
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
	var files, broken []string
	brokenErr := map[string]error{}
	err = fs.WalkDir(listFS(root), ".", func(rel string, d fs.DirEntry, err error) error {
		name := filepath.Join(arg, filepath.FromSlash(rel))
		switch {
		case err != nil && rel == ".":
			return err
		case err != nil:
			broken = append(broken, rel)
			brokenErr[rel] = err
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case d.IsDir() || !IsReplayFile(rel):
			return nil
		case !d.Type().IsRegular():
			skip(name, notRegular(d.Type()))
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return err
	}
	if len(files) == 0 && len(broken) == 0 {
		return fmt.Errorf("%s: no replay files (.yaml, .yml, .json, .jsonl)", arg)
	}
	if afterListing != nil {
		afterListing()
	}
	all := append(files, broken...)
	sort.Slice(all, func(i, j int) bool {
		return filepath.Join(arg, filepath.FromSlash(all[i])) < filepath.Join(arg, filepath.FromSlash(all[j]))
	})
	for _, rel := range all {
		name := filepath.Join(arg, filepath.FromSlash(rel))
		var ok bool
		if err, bad := brokenErr[rel]; bad {
			ok = s.send(replay.Input{Name: name, Err: fmt.Errorf("cannot be listed: %v", err)})
		} else if f, err := openInRoot(root, path.Clean(rel)); err != nil {
			ok = s.send(replay.Input{Name: name, Err: err})
		} else {
			ok = s.opened(name, f)
			f.Close()
		}
		if !ok {
			return s.ctx.Err()
		}
	}
	return nil
}
