//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The attacks of a hostile case pack (--cases DIR), a hostile file name
// in an analysis's statement and a hostile reference's name, each held
// here (the third attack pass, 2026-12-07).

// hostilePack writes a case pack of one case, core/x, into a new folder
// and returns the folder.
func hostilePack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	putFile(t, filepath.Join(dir, "pack.yaml"), "name: hostile\nversion: 0.0.1\ncontract: 1\n")
	putFile(t, filepath.Join(dir, "core", "x.yaml"), packCase("x", "a left move closes a gap"))
	return dir
}

// packCase is a case file of one case, id, that passes under every
// profile.
func packCase(id, description string) string {
	return `source: tileproof, docs/profiles.md, Rules (all profiles), "a move slides every line toward its edge, compresses the gaps" ... "and pads with empties"
profiles: [all]
cases:
  - id: ` + id + `
    description: ` + description + `
    start:
      board: |
        . 2 . 4
        . . . .
        . . . .
        . . . .
    steps:
      - move: left
        expect:
          board: |
            2 4 . .
            . . . .
            . . . .
            . . . .
          gained: 0
`
}

func putFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runBounded is runCLI, failed after a minute (a read that waits on a
// named pipe would wait for ever).
func runBounded(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(t, "", args...)
		done <- result{code, out, errOut}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(time.Minute):
		t.Fatalf("%q: still running after a minute", args)
	}
	return 0, "", ""
}

// TestCasePackReadsInsideOnly: a case pack's folder is read through
// itself alone, regular files only, bounded. A link that leads out of it
// (to a file of secrets, to /dev/zero) is refused, not followed: before,
// the link to a file of the form KEY=VALUE had its first bytes quoted in
// the pack's error, and the one to /dev/zero was read until memory ran
// out. A named pipe is not waited on; a file past 8 MiB is refused by its
// size, unread (a 1 GiB one took 1.06 GB resident and 3.9 s before, 11 MB
// and 0.04 s now). A link inside the folder is followed.
func TestCasePackReadsInsideOnly(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	putFile(t, outside, "TOKEN=hunter2-s3cr3t\n")
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, file string)
		want  string // in stderr
	}{
		{"link out", func(t *testing.T, file string) { symlink(t, outside, file) }, "path escapes from parent"},
		{"link to /dev/zero", func(t *testing.T, file string) { symlink(t, "/dev/zero", file) }, "path escapes from parent"},
		{"named pipe", func(t *testing.T, file string) {
			if err := syscall.Mkfifo(file, 0o644); err != nil {
				t.Skip(err)
			}
		}, "a named pipe, not a regular file"},
		{"past the bound", func(t *testing.T, file string) {
			f, err := os.Create(file)
			if err == nil {
				err = f.Truncate(1 << 30) // sparse: no disk
				f.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}, "larger than 8 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := hostilePack(t)
			tc.plant(t, filepath.Join(dir, "core", "planted.yaml"))
			for _, args := range [][]string{{"cases", "show", "--cases", dir, "core/x"}, {"cases", "lint", dir}} {
				code, out, errOut := runBounded(t, args...)
				if code != exitBadUsage || !strings.Contains(errOut, tc.want) || strings.Contains(out+errOut, "hunter2") || strings.Contains(out+errOut, "TOKEN") {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q, nothing of the file outside", args, code, out, errOut, tc.want)
				}
			}
		})
	}
	t.Run("link inside", func(t *testing.T) {
		dir := hostilePack(t)
		putFile(t, filepath.Join(dir, "shared", "y.txt"), packCase("shared", "the same, shared"))
		symlink(t, filepath.Join("..", "shared", "y.txt"), filepath.Join(dir, "core", "y.yaml"))
		if code, out, errOut := runBounded(t, "cases", "show", "--cases", dir, "core/shared"); code != exitOK || !strings.Contains(out, "id: shared\n") {
			t.Errorf("a link inside the pack: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	})
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skip(err)
	}
}

// TestCasePackTextShownSafely: a case pack's file whose name holds a
// control or format character is refused, named escaped: the name is the
// case's file in every report of a run, and conform's text report wrote
// it raw ("FAIL  core/w [classic] ... (core/\x1b]0;pwned..."), escape
// sequences and newline and all. The pack's decoding errors name its
// folder, which may be any name, escaped too (before: raw).
func TestCasePackTextShownSafely(t *testing.T) {
	dir := hostilePack(t)
	putFile(t, filepath.Join(dir, "core", "\x1b]0;pwned\x07bad\nok     x.yaml"), strings.Replace(packCase("w", "wrong"), "gained: 0", "gained: 4", 1))
	for _, args := range [][]string{{"cases", "show", "--cases", dir, "core/x"}, {"cases", "lint", dir}, {"conform", "--impl", "builtin", "--cases", dir, "--properties=false"}} {
		code, out, errOut := runBounded(t, args...)
		noControls(t, strings.Join(args[:2], " "), out+errOut)
		if code != exitBadUsage || !strings.Contains(errOut, `core/\x1b]0;pwned\x07bad\x0aok     x.yaml: a case pack's file names hold no control or format character`) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	parent := t.TempDir()
	dir = filepath.Join(parent, "p\x1b]0;pwned\x07")
	if err := os.Rename(hostilePack(t), dir); err != nil {
		t.Fatal(err)
	}
	putFile(t, filepath.Join(dir, "core", "b.yaml"), "cases:\n  - id: b\n    bogus: 1\n")
	for _, args := range [][]string{{"cases", "show", "--cases", dir, "core/x"}, {"cases", "lint", dir}, {"conform", "--impl", "builtin", "--cases", dir}} {
		code, out, errOut := runBounded(t, args...)
		noControls(t, strings.Join(args[:2], " "), out+errOut)
		if code != exitBadUsage || !strings.Contains(errOut, `p\x1b]0;pwned\x07/core/b.yaml:3:5: unknown field "bogus"`) {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestAnalysisStatementOneLine: verify --analyze writes the analysis's
// statement, which names the file, on its line: a file named
// "x\nok     y.yaml" added a line "ok     y.yaml: not unusually close
// ..." that reads as a verdict of its own.
func TestAnalysisStatementOneLine(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "x\nok     y.yaml")
	data, err := os.ReadFile("../../replays/valid/committed-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	putFile(t, name, string(data))
	code, out, errOut := runCLI(t, "", "verify", "--analyze", dir)
	if code != exitOK || !strings.Contains(out, `       analysis: `) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "ok     y.yaml") {
			t.Errorf("the name added a line: %q", out)
		}
	}
	if !strings.Contains(out, `analysis: consistent: `+filepath.Join(dir, `x\x0aok     y.yaml`)+`: `) {
		t.Errorf("the statement does not name the file escaped: %q", out)
	}
}

// TestAnalyzeReferenceNameShown: the name of a reference given with
// --reference, which the statement quotes, reaches the terminal escaped:
// before, its escape sequences (a window title) and right-to-left
// override were written raw, and its newline started a line.
func TestAnalyzeReferenceNameShown(t *testing.T) {
	file := editedReference(t, func(ref map[string]any) { ref["name"] = "humans\x1b]0;pwned\x07\u202esrc\nok     z.yaml" })
	code, out, errOut := runCLI(t, "", "analyze", "--reference", file, "../../replays/valid/committed-seed.yaml")
	noControls(t, "analyze", out)
	if code != exitOK || !strings.Contains(out, `Against reference humans\x1b]0;pwned\x07\u202esrc\x0aok     z.yaml`) || strings.Contains(out, "\u202e") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestCasePackNameRefused: a pack whose name or version holds a control
// or format character is refused, named escaped: they head every report
// of a run, and conform's text report wrote them raw ("to the pack
// cases\x1b]0;pwned..."), as its JSON, JUnit and page carried them.
func TestCasePackNameRefused(t *testing.T) {
	for _, head := range []string{"name: \"cases\\e]0;pwned\\a\\u202e\"\nversion: 0.0.1\n", "name: cases\nversion: \"0.0.1\\e[8m\"\n"} {
		dir := hostilePack(t)
		putFile(t, filepath.Join(dir, "pack.yaml"), head+"contract: 1\n")
		for _, args := range [][]string{{"cases", "show", "--cases", dir, "core/x"}, {"cases", "lint", dir}, {"conform", "--impl", "builtin", "--cases", dir, "--properties=false", "--profile", "classic"}} {
			code, out, errOut := runBounded(t, args...)
			noControls(t, strings.Join(args[:2], " "), out+errOut)
			if code != exitBadUsage || !strings.Contains(errOut, "pack.yaml: the pack's name and version hold no control or format character: ") || strings.Contains(out+errOut, "\u202e") {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
	}
}

// TestMatrixNamesShownAsText: matrix shows a report's pack, version, area and
// case as text whatever they hold, as a report written by hand can: such
// a report added a row of passes under the heading ("| evil-impl | ✓
// 999"), a column, or a link beside a failed case (before 2026-12-07:
// written as they are).
func TestMatrixNamesShownAsText(t *testing.T) {
	report := "../../conformance/adapters/webcomponent-2048.report.json"
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	_, plain, _ := runCLI(t, "", "matrix", report)
	wantRows := strings.Count(plain, "\n|")
	for _, tc := range []struct {
		name string
		edit func(r map[string]any)
	}{
		{"pack", func(r map[string]any) { r["pack"] = "cases |\n| evil-impl | ✓ 999 |" }},
		{"version", func(r map[string]any) { r["packVersion"] = "0.3.0 [docs](https://evil.example)" }},
		{"area", func(r map[string]any) { r["results"].([]any)[0].(map[string]any)["area"] = "core | ✓ 100" }},
		{"case", func(r map[string]any) {
			for _, x := range r["results"].([]any) {
				if res := x.(map[string]any); res["status"] != "pass" && res["status"] != "skip" {
					res["case"] = "core/x` ✓ [fixed](https://evil.example) `"
					return
				}
			}
		}},
	} {
		var r map[string]any
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		tc.edit(r)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "evil.json")
		putFile(t, file, string(b))
		code, out, errOut := runCLI(t, "", "matrix", file)
		if code != exitOK {
			t.Fatalf("%s: exit %d, stderr %q", tc.name, code, errOut)
		}
		if rows := strings.Count(out, "\n|"); rows != wantRows || strings.Contains(out, "\n| evil-impl") || strings.Count(out, "](https://evil.example)") != strings.Count(out, `\](https://evil.example)`) {
			t.Errorf("%s: %d table lines (want %d), or a row or link of the report's words:\n%s", tc.name, rows, wantRows, out)
		}
		// Each table line has as many cells as the heading.
		var cells []int
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "|") {
				cells = append(cells, strings.Count(l, "|")-strings.Count(l, `\|`))
			}
		}
		if slices.Min(cells) != slices.Max(cells) {
			t.Errorf("%s: table lines of %v cells:\n%s", tc.name, cells, out)
		}
	}
}

// TestNamesReadAsWords: a file named to read as the line's own words is
// quoted where verify names it, in its verdict line and in the summary:
// "x); best without warnings 9999999 (y.yaml" added a clause to the
// summary, and ": score 9999999, ..." its own score before the real one.
func TestNamesReadAsWords(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../replays/valid/committed-seed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	name := "x.yaml); best without warnings 9999999 (y.yaml"
	putFile(t, filepath.Join(dir, name), string(data))
	code, out, errOut := runCLI(t, "", "verify", dir)
	quoted := `"` + filepath.Join(dir, name) + `"`
	if code != exitOK || !strings.Contains(out, "ok     "+quoted+": score") || !strings.HasSuffix(strings.TrimSpace(out), "best verified score 1112 ("+quoted+")") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
