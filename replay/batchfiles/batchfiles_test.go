package batchfiles

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay"
)

// verifyAll reads args as a batch and verifies it on workers, as verify
// does, returning the verdicts in order and Read's error.
func verifyAll(t *testing.T, workers int, args ...string) ([]replay.Verdict, error) {
	t.Helper()
	v := replay.NewVerifier()
	inputs := make(chan replay.Input, 16)
	var readErr error
	go func() {
		defer close(inputs)
		readErr = Read(context.Background(), args, strings.NewReader(""), inputs, func(path, why string) {})
	}()
	var got []replay.Verdict
	replay.VerifyBatch(context.Background(), inputs, workers, v.VerifyFile, func(vd replay.Verdict) { got = append(got, vd) }, nil)
	return got, readErr
}

// minimal returns the bytes of a valid replay of the corpus.
func minimal(t *testing.T) []byte {
	t.Helper()
	valid, err := os.ReadFile("../../replays/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return valid
}

// TestDirSwapReadsNothingOutside: a sub-directory swapped for a link to a
// directory outside, between the listing and the reading (the hook runs
// there, so the race is taken every time), is an unreadable verdict for
// its entry: the file outside is not read and credited to the inside
// name, and the rest of the batch is verified (issue 25, item 7: 3 of 281
// runs read outside, 50 aborted the batch).
func TestDirSwapReadsNothingOutside(t *testing.T) {
	base := t.TempDir()
	valid := minimal(t)
	dir, outside := filepath.Join(base, "subs"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(dir, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "sub", "a.yaml"), []byte("profile: tile-merge\n"), 0o644) // invalid inside
	os.WriteFile(filepath.Join(outside, "a.yaml"), valid, 0o644)                              // valid outside
	os.WriteFile(filepath.Join(dir, "z.yaml"), valid, 0o644)
	afterListing = func() {
		if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(base, "sub.old")); err != nil {
			t.Error(err)
		}
		if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
			t.Error(err)
		}
	}
	defer func() { afterListing = nil }()
	got, err := verifyAll(t, 2, dir)
	if err != nil || len(got) != 2 || got[0].Name != filepath.Join(dir, "sub", "a.yaml") || !got[0].Reason.Unreadable() ||
		got[1].Name != filepath.Join(dir, "z.yaml") || !got[1].Valid {
		t.Errorf("%v: %+v", err, got)
	}
}

// TestVerifyRunBudget: the replays in flight of one run share one memory
// budget whatever the workers (issue 25, item 3: four 60 MiB files took
// 7.7 GB, the workers multiplying a file's bound). With a budget of two
// heavy files, eight of them under --workers 8 are all verified, never
// more than two held at once.
func TestVerifyRunBudget(t *testing.T) {
	dir := t.TempDir()
	// A spawn-recorded log of undos, the heaviest shape a byte: weighed at
	// verifyMemPerByte a byte.
	body := `{"profile":"online-2048","start":"2 2 . ./. . . ./. . . ./. . . .","moves":"` + strings.Repeat("Z", 200_000) + `","claim":{"score":0,"maxTile":4,"moves":1}}`
	for i := range 8 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("u%d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := replayWeight(int64(len(body)))
	saved := budget
	budget = &memBudget{total: 2 * w}
	defer func() { budget = saved }()
	got, err := verifyAll(t, 8, dir)
	invalid := 0
	for _, vd := range got {
		if !vd.Valid && !vd.Reason.Unreadable() {
			invalid++
		}
	}
	if err != nil || len(got) != 8 || invalid != 8 {
		t.Fatalf("%v: %d verdicts, %d invalid", err, len(got), invalid)
	}
	if budget.peak > 2*w || budget.peak < w || budget.held != 0 {
		t.Errorf("peak %d, held %d; budget %d", budget.peak, budget.held, 2*w)
	}
}

// failingDir is a file system whose directory bad cannot be listed, as a
// directory swapped or removed while verify walks it.
type failingDir struct{ fs.FS }

func (f failingDir) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == "bad" {
		return nil, errors.New("swapped while listed")
	}
	return fs.ReadDir(f.FS, name)
}

// TestDirListingErrorNotAbort: a sub-directory that cannot be listed is
// an unreadable verdict of its own; the batch goes on (before, the whole
// batch aborted with exit 2 and no verdict for anyone).
func TestDirListingErrorNotAbort(t *testing.T) {
	dir := t.TempDir()
	valid := minimal(t)
	os.MkdirAll(filepath.Join(dir, "bad"), 0o755)
	os.WriteFile(filepath.Join(dir, "bad", "a.yaml"), valid, 0o644)
	os.WriteFile(filepath.Join(dir, "z.yaml"), valid, 0o644)
	saved := listFS
	listFS = func(root *os.Root) fs.FS { return failingDir{root.FS()} }
	defer func() { listFS = saved }()
	got, err := verifyAll(t, 2, dir)
	if err != nil || len(got) != 2 || !got[0].Reason.Unreadable() || !strings.Contains(got[0].Error, filepath.Join(dir, "bad")+": cannot be listed: swapped while listed") ||
		got[1].Name != filepath.Join(dir, "z.yaml") || !got[1].Valid {
		t.Errorf("%v: %+v", err, got)
	}
}

// TestSendLines: each non-blank line is a replay named FILE:LINE; a line
// over the limit is an error of its own (and not kept in memory), and the
// lines after it go on; a line that is not a JSON object is an error.
func TestSendLines(t *testing.T) {
	in := "{a}\n\n{" + strings.Repeat("x", 200000) + "\n {b}\r\nc"
	out := make(chan replay.Input, 10)
	(&sender{ctx: context.Background(), out: out, limit: 1000}).lines("in", strings.NewReader(in))
	close(out)
	var got []string
	for i := range out {
		if i.Release != nil {
			i.Release()
		}
		if i.Err != nil {
			got = append(got, i.Name+" error: "+i.Err.Error())
		} else {
			got = append(got, i.Name+" "+string(i.Data))
		}
	}
	want := []string{"in:1 {a}", "in:3 error: line longer than 1000 bytes", "in:4  {b}", "in:5 error: not a JSON object: a line of a JSON Lines batch is one replay in JSON"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReadStopsWithContext: once its context is done, Read sends no more
// replays, gives back the memory of the one it held, and returns the
// context's error.
func TestReadStopsWithContext(t *testing.T) {
	dir := t.TempDir()
	valid := minimal(t)
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%02d.yaml", i)), valid, 0o644)
	}
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan replay.Input) // unbuffered: Read waits on each send
	done := make(chan error)
	go func() { done <- Read(ctx, []string{dir, dir}, nil, out, func(string, string) {}) }()
	in := <-out
	in.Release()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Read after the context ended: %v", err)
	}
	if budget.held != 0 {
		t.Errorf("%d bytes of the budget still held", budget.held)
	}
}

// TestDirSkipsCasePacks: a directory holding pack.yaml (conform
// --observe-out writes one, DIR/cases, beside its replays) is cases, not
// replays: inside a directory it is skipped with a note, its files never
// read; named itself, it is refused saying what it is.
func TestDirSkipsCasePacks(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"a.yaml":                  minimal(t),
		"cases/pack.yaml":         []byte("name: observed\n"),
		"cases/explore/case.yaml": []byte("profiles: [classic]\n"),
		"more/pack.yaml/x.yaml":   minimal(t), // a directory named pack.yaml makes no pack
	} {
		file := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(file), 0o755)
		os.WriteFile(file, data, 0o644)
	}
	inputs := make(chan replay.Input, 16)
	var skipped []string
	go func() {
		defer close(inputs)
		if err := Read(context.Background(), []string{dir}, strings.NewReader(""), inputs, func(path, why string) { skipped = append(skipped, path+": "+why) }); err != nil {
			t.Error(err)
		}
	}()
	var read []string
	for in := range inputs {
		read = append(read, strings.TrimPrefix(in.Name, dir))
	}
	sep := string(filepath.Separator)
	if want := []string{sep + "a.yaml", filepath.FromSlash("/more/pack.yaml/x.yaml")}; fmt.Sprint(read) != fmt.Sprint(want) {
		t.Errorf("read %q, want %q", read, want)
	}
	if want := []string{filepath.Join(dir, "cases") + ": a case pack (it holds pack.yaml): cases, not replays"}; fmt.Sprint(skipped) != fmt.Sprint(want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
	pack := filepath.Join(dir, "cases")
	err := Read(context.Background(), []string{pack}, strings.NewReader(""), make(chan replay.Input, 16), func(string, string) {})
	if err == nil || !strings.Contains(err.Error(), pack+" is a case pack (it holds pack.yaml), not replays: tileproof cases lint") {
		t.Errorf("the pack named: %v", err)
	}
}

// TestDirNamesHiddenReplays: a hidden file with a replay's ending inside
// a directory is not read, but named as skipped, so that a submission
// named .x.json cannot leave an audit unseen; other hidden files, and
// files of other endings, pass without a word.
func TestDirNamesHiddenReplays(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.yaml", ".x.json", ".notes.txt", "sub/.y.yaml", "readme.md"} {
		file := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(file), 0o755)
		os.WriteFile(file, minimal(t), 0o644)
	}
	inputs := make(chan replay.Input, 16)
	var skipped []string
	go func() {
		defer close(inputs)
		if err := Read(context.Background(), []string{dir}, strings.NewReader(""), inputs, func(path, why string) { skipped = append(skipped, strings.TrimPrefix(path, dir)+": "+why) }); err != nil {
			t.Error(err)
		}
	}()
	var read []string
	for in := range inputs {
		read = append(read, strings.TrimPrefix(in.Name, dir))
	}
	sep := string(filepath.Separator)
	if want := []string{sep + "a.yaml"}; fmt.Sprint(read) != fmt.Sprint(want) {
		t.Errorf("read %q, want %q", read, want)
	}
	why := ": a hidden file (its name begins with a dot): inside a directory it is not read (name it on the command line to read it)"
	if want := []string{sep + ".x.json" + why, filepath.FromSlash("/sub/.y.yaml") + why}; fmt.Sprint(skipped) != fmt.Sprint(want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}

// TestReadAtMost: limit bytes are read; one more is an error naming the
// limit, in MiB from 1 MiB on.
func TestReadAtMost(t *testing.T) {
	for _, tc := range []struct {
		n, limit int64
		err      string
	}{
		{10, 10, ""}, {11, 10, "larger than 10 bytes"}, {1 << 20, 1 << 20, ""}, {1<<20 + 1, 1 << 20, "larger than 1 MiB"},
	} {
		data, err := ReadAtMost(strings.NewReader(strings.Repeat("x", int(tc.n))), tc.limit)
		switch {
		case tc.err == "" && (err != nil || int64(len(data)) != tc.n):
			t.Errorf("%d bytes, limit %d: %d read, %v", tc.n, tc.limit, len(data), err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%d bytes, limit %d: %v, want %q", tc.n, tc.limit, err, tc.err)
		}
	}
}

// TestSameAsInput: an output is the input it names, under its own name
// or through a link; one that does not exist yet, another file, and
// stdin are none.
func TestSameAsInput(t *testing.T) {
	dir := t.TempDir()
	in, other := filepath.Join(dir, "game.yaml"), filepath.Join(dir, "other.yaml")
	for _, f := range []string{in, other} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		out    string
		inputs []string
		want   string
	}{
		{in, []string{"-", other, in}, in},
		{link, []string{"", in}, in},
		{in, []string{link}, link},
		{other, []string{in, "-"}, ""},
		{filepath.Join(dir, "new.html"), []string{in}, ""},
	} {
		if got := SameAsInput(tc.out, tc.inputs); got != tc.want {
			t.Errorf("SameAsInput(%s, %q) = %q, want %q", tc.out, tc.inputs, got, tc.want)
		}
	}
}

// TestReadTooLargeUnread: a regular file past MaxReplaySize, in a
// directory or named, is refused by its size without a byte of it read
// and without a weight of the budget taken, with the words of a file
// read past the bound ("larger than 64 MiB"). Before 2026-12-07 it was
// read to the bound first: a 65 MiB submission took 64 MiB from the disk
// and some 170 MB of memory for the same verdict.
func TestReadTooLargeUnread(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxReplaySize + 1); err != nil { // sparse: no disk taken
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(filepath.Join(dir, "ok.yaml"), minimal(t), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{dir}, {big}} {
		inputs := make(chan replay.Input, 4)
		var got []replay.Input
		done := make(chan struct{})
		go func() {
			defer close(done)
			for in := range inputs {
				got = append(got, in)
			}
		}()
		err := Read(context.Background(), args, strings.NewReader(""), inputs, func(path, why string) {})
		close(inputs)
		<-done
		if err != nil || len(got) == 0 {
			t.Fatalf("%v: %v, %d inputs", args, err, len(got))
		}
		in := got[0]
		if in.Name != big || in.Err == nil || in.Err.Error() != "larger than 64 MiB" || in.Data != nil || in.Release != nil {
			t.Errorf("%v: %s: %v, %d bytes read, budget taken %v; want it refused unread", args, in.Name, in.Err, len(in.Data), in.Release != nil)
		}
		for _, in := range got {
			if in.Release != nil {
				in.Release()
			}
		}
	}
}
