package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/replay/batchfiles"
)

// The attacks of a hostile submitter on the command's own output and
// files (issue 25), each held here.

// hostileName is a submission's file name that, written raw to a
// terminal, erases its line, writes "ok" over its FAIL, sets the window's
// title and loads the clipboard (OSC 52).
const hostileName = "\x1b[2K\rok     x.yaml: score 1048576\x1b]0;pwned\x07\x1b]52;c;cm0gLXJmIH4=\x07.yaml"

// noControls fails when out holds a byte a terminal acts on (other than
// newline and tab).
func noControls(t *testing.T, what, out string) {
	t.Helper()
	for i := 0; i < len(out); i++ {
		if c := out[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			t.Errorf("%s: byte %#x at %d: %q", what, c, i, out)
			return
		}
	}
}

// minimalAt writes the replay replays/minimal.yaml, valid, to the file
// name and returns name.
func minimalAt(t *testing.T, name string) string {
	t.Helper()
	valid, err := os.ReadFile("../../replays/minimal.yaml")
	if err == nil {
		err = os.WriteFile(name, valid, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return name
}

// TestFileNamesShownSafely: a file named with escape sequences is named
// visibly (\x1b) in verify's verdicts, its summary, its errors and its
// report's line, and in show's title and errors, never written raw
// (issue 25, item 5).
func TestFileNamesShownSafely(t *testing.T) {
	dir := t.TempDir()
	name := minimalAt(t, filepath.Join(dir, hostileName))
	bad := filepath.Join(dir, "bad"+hostileName)
	if err := os.WriteFile(bad, []byte("profile: tile-merge\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "", "verify", dir)
	if code != exitBadUsage || !strings.Contains(out, `\x1b[2K\x0dok`) {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	noControls(t, "verify", out+errOut)
	report := filepath.Join(t.TempDir(), "report"+hostileName)
	code, out, errOut = runCLI(t, "", "verify", "--report", report, name)
	if code != exitOK || !strings.Contains(errOut, `wrote `) || !strings.Contains(errOut, `report\x1b[2K`) {
		t.Errorf("verify --report: exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "verify --report", out+errOut)
	code, out, errOut = runCLI(t, "", "show", "--step", "0", name)
	if code != exitOK || !strings.Contains(out, `\x1b]0;pwned\x07`) {
		t.Errorf("show: exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "show", out+errOut)
	code, out, errOut = runCLI(t, "", "show", bad)
	if code != exitBadUsage || !strings.Contains(errOut, `\x1b]52;c;`) {
		t.Errorf("show of a bad file: exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "show of a bad file", out+errOut)
}

// TestHTMLHostileName: show --html writes a file named with markup
// through html/template, which escapes it: no tag of the name reaches
// the page; its "wrote" line names the replay and the page visibly
// (\x1b), never raw.
func TestHTMLHostileName(t *testing.T) {
	dir := t.TempDir()
	name := minimalAt(t, filepath.Join(dir, "<img src=x onerror=alert(1)>\x1b]0;t\x07.yaml"))
	page := filepath.Join(dir, "page\x1b]0;o\x07.html")
	code, out, errOut := runCLI(t, "", "show", "--html", "-o", page, name)
	if code != exitOK || !strings.Contains(out, `\x1b]0;t\x07`) || !strings.Contains(out, `\x1b]0;o\x07`) {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "show --html", out+errOut)
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "<img src=x") || !strings.Contains(string(html), "img src=x onerror") {
		t.Errorf("the name is not escaped, or not there")
	}
}

// TestShowBounded: show reads a replay as verify does, a regular file of
// at most 64 MiB: a link to /dev/zero and a named pipe are refused at
// once (they grew past 2.4 GB, and hung; issue 25, item 4), a file one
// byte over the limit is refused by its size.
func TestShowBounded(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, batchfiles.MaxReplaySize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{zero, "a device; only a regular file is read"},
		{big, "larger than 64 MiB"},
	} {
		if code, _, errOut := runCLI(t, "", "show", tc.file); code != exitBadUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("show %s: exit %d, %q", tc.file, code, errOut)
		}
	}
}

// TestReportNotThroughLinks: verify --report writes only where it was
// asked (issue 25, item 9): a link planted at FILE_files is refused
// before anything is written, and the page-like files of its target are
// left; a link planted at FILE is refused, its target untouched; a report
// path naming an input (even through a link), or a replay file inside an
// input directory, is refused before the input is truncated.
func TestReportNotThroughLinks(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	replayFile := minimalAt(t, filepath.Join(in, "a.yaml"))
	valid, err := os.ReadFile(replayFile)
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	os.Mkdir(victim, 0o755)
	page := filepath.Join(victim, "keep-0123abcd.html")
	os.WriteFile(page, []byte("mine"), 0o644)
	if err := os.Symlink(victim, filepath.Join(dir, "r_files")); err != nil {
		t.Skip(err)
	}
	secret := filepath.Join(dir, "secret.txt")
	os.WriteFile(secret, []byte("mine"), 0o644)
	os.Symlink(secret, filepath.Join(dir, "s.html"))
	inputLink := filepath.Join(dir, "link.yaml")
	os.Symlink(replayFile, inputLink)
	for _, tc := range []struct{ report, input, want string }{
		{filepath.Join(dir, "r.html"), in, "not a directory of its own"},
		{filepath.Join(dir, "s.html"), in, "is a symbolic link"},
		{inputLink, replayFile, "would destroy it before it is read"},
		{filepath.Join(in, "b.yaml"), in, "inside the input directory"},
	} {
		code, out, errOut := runCLI(t, "", "verify", "--report", tc.report, tc.input)
		if code != exitBadUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("--report %s %s: exit %d, %s%s", filepath.Base(tc.report), filepath.Base(tc.input), code, out, errOut)
		}
	}
	for _, f := range []string{page, secret} {
		if data, err := os.ReadFile(f); err != nil || string(data) != "mine" {
			t.Errorf("%s: %q %v", f, data, err)
		}
	}
	if data, err := os.ReadFile(replayFile); err != nil || string(data) != string(valid) {
		t.Errorf("the input: %d bytes, %v", len(data), err)
	}
	if _, err := os.Lstat(filepath.Join(in, "b.yaml")); err == nil {
		t.Errorf("a report was written into the input directory")
	}
}

// TestGameHashShown: verify's text output names the game as played under
// an ok line whose log has undone moves, and the JSON line carries it.
func TestGameHashShown(t *testing.T) {
	file := "../../replays/valid/online-2048-undo-end-run.yaml"
	code, out, _ := runCLI(t, "", "verify", file)
	if code != exitOK || !strings.Contains(out, "game as played (undone moves left out): gameSha256 ") {
		t.Errorf("exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "verify", "--json", file)
	if code != exitOK || !strings.Contains(out, `"gameSha256":"`) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestImportBoundedAndSafe: import reads a recording as show reads a
// replay, a regular file only (a link to /dev/zero refused by what it is,
// not read to 8 MiB), and names a hostile file visibly.
func TestImportBoundedAndSafe(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.txt")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	bad := filepath.Join(dir, hostileName+".txt")
	os.WriteFile(bad, []byte("not a recording\x1b[2J"), 0o644)
	code, out, errOut := runCLI(t, "", "import", "hallabois", "-o", filepath.Join(dir, "out")+"/", zero, bad)
	if code == exitOK || !strings.Contains(errOut, "a device; only a regular file is read") || !strings.Contains(errOut, `\x1b[2K\x0dok`) {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	noControls(t, "import", out+errOut)
}

// TestJSONLineNoTerminalRunes: a verdict line escapes the C1 controls and
// the format characters of a name (\u009b, \u202e), which JSON itself
// would write raw, and reads back to the same name.
func TestJSONLineNoTerminalRunes(t *testing.T) {
	dir := t.TempDir()
	name := minimalAt(t, filepath.Join(dir, "a\u009b2J\u202eb.yaml"))
	code, out, _ := runCLI(t, "", "verify", "--json", name)
	var vd struct{ Name string }
	if err := json.Unmarshal([]byte(out), &vd); err != nil || code != exitOK || vd.Name != name {
		t.Fatalf("exit %d, %v, name %q\n%s", code, err, vd.Name, out)
	}
	if strings.ContainsRune(out, 0x9b) || strings.ContainsRune(out, 0x202e) || !strings.Contains(out, `a\u009b2J\u202eb.yaml`) {
		t.Errorf("%q", out)
	}
}

// TestOutputNotAnInput: an output file that is one of the command's
// inputs, under another name or through a link, is refused before
// anything is written, and the input is left as it was: show --html
// REPLAY -o REPLAY replaced the replay with its page, record -o PROFILE
// --profile PROFILE the profile with a replay, cases import-pgs FILE
// -o FILE the document with cases. (import hallabois: import.txtar.)
func TestOutputNotAnInput(t *testing.T) {
	dir := t.TempDir()
	game := minimalAt(t, filepath.Join(dir, "game.yaml"))
	link := filepath.Join(dir, "page.html")
	if err := os.Symlink("game.yaml", link); err != nil {
		t.Fatal(err)
	}
	profile := filepath.Join(dir, "p.yaml")
	if code, out, errOut := runCLI(t, "", "profiles", "tile-merge"); code != exitOK {
		t.Fatalf("profiles: exit %d: %s", code, errOut)
	} else if err := os.WriteFile(profile, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	pgs := filepath.Join(dir, "pgs.json")
	doc, err := os.ReadFile("../../conformance/testdata/pgs-2048.json")
	if err == nil {
		err = os.WriteFile(pgs, doc, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, f := range []string{game, profile, pgs} {
		before[f], _ = os.ReadFile(f)
	}
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"show", "--html", game, "-o", link}, "tileproof: show: -o " + link + " is the input " + game + ": writing it would replace it"},
		{[]string{"show", "--html", game, "-o", filepath.Join(dir, ".", "game.yaml")}, "is the input " + game},
		{[]string{"show", "--html", game, "--profile", profile, "-o", profile}, "tileproof: show: -o " + profile + " is the input " + profile},
		{[]string{"record", "--seed", "7", "--moves", "L", "--profile", profile, "-o", profile}, "tileproof: record: -o " + profile + " is the input " + profile},
		{[]string{"cases", "import-pgs", pgs, "-o", pgs}, "tileproof: cases import-pgs: -o " + pgs + " is the input " + pgs},
		{[]string{"cases", "import-pgs", pgs, "--profile-out", pgs}, "tileproof: cases import-pgs: --profile-out " + pgs + " is the input " + pgs},
	} {
		code, out, errOut := runCLI(t, "", tc.args...)
		if code != exitBadUsage || out != "" || !strings.Contains(errOut, tc.say) {
			t.Errorf("%s: exit %d, %q, %q; want exit 2 saying %q", strings.Join(tc.args, " "), code, out, errOut, tc.say)
		}
		for f, want := range before {
			if got, _ := os.ReadFile(f); string(got) != string(want) {
				t.Fatalf("%s: %s was written over", strings.Join(tc.args, " "), f)
			}
		}
	}
	// A new file, or another one, is written as before.
	if code, _, errOut := runCLI(t, "", "show", "--html", game, "-o", filepath.Join(dir, "new.html")); code != exitOK {
		t.Errorf("show --html to a new file: exit %d, %s", code, errOut)
	}
}

// TestNamesCannotAddLines: a file name holding a newline is shown with
// it escaped in every message that names it (the command's errors,
// import's notes, an unreadable verdict), so that it cannot add a line
// that reads as a verdict of its own; an unknown flag's name is shown
// with its escapes visible, as every other argument is (a glob of
// submissions can make a file named "--\x1b]52;..." an argument).
func TestNamesCannotAddLines(t *testing.T) {
	dir := t.TempDir()
	forged := "\nok     fake.yaml: score 999\n"
	bad := filepath.Join(dir, "bad"+forged+".yaml")
	if err := os.WriteFile(bad, []byte("profile: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "bad"+forged+".yaml"), []byte("profile: x\n"), 0o644)
	game := minimalAt(t, filepath.Join(dir, "game.yaml"))
	for _, args := range [][]string{
		{"verify", filepath.Join(dir, "none"+forged)},
		{"verify", sub},
		{"verify", "--profile=" + bad, game},
		{"show", bad},
		{"show", "--html", "-o", filepath.Join(dir, "none"+forged, "p.html"), game},
		{"import", "hallabois", bad},
		{"import", "hallabois", bad, "-o", filepath.Join(dir, "out") + "/"},
	} {
		code, out, errOut := runCLI(t, "", args...)
		if code == exitOK || !strings.Contains(out+errOut, `\x0aok     fake.yaml`) {
			t.Errorf("%q: exit %d, the name not shown escaped:\n%s%s", args, code, out, errOut)
		}
		for _, line := range strings.Split(out+errOut, "\n") {
			if strings.HasPrefix(line, "ok") {
				t.Errorf("%q: a line of the name's own: %q", args, line)
			}
		}
	}
	code, out, errOut := runCLI(t, "", "verify", "--x"+hostileName, game)
	if code != exitBadUsage || !strings.Contains(errOut, `unknown flag: --x\x1b[2K\x0dok`) {
		t.Errorf("an unknown flag: exit %d, %q", code, errOut)
	}
	noControls(t, "an unknown flag", out+errOut)
}

// TestAnalyzeUnreadableNamed: a file analyze cannot read is named in its
// error as verify names it, its escapes and newlines visible, also where
// the error quotes the name (a socket named on the command line: "open
// NAME: no such device or address"). Before, analyze wrote the error
// raw: the name's escape sequences reached the terminal, and its newline
// began a line of its own.
func TestAnalyzeUnreadableNamed(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "s\nok     fake.yaml\x1b[2K\r")
	l, err := net.Listen("unix", name)
	if err != nil {
		t.Skipf("no unix socket here: %v", err)
	}
	defer l.Close()
	for _, cmd := range []string{"analyze", "verify"} {
		code, out, errOut := runCLI(t, "", cmd, name)
		if code != exitBadUsage || !strings.Contains(out+errOut, `\x0aok     fake.yaml\x1b[2K\x0d: `) {
			t.Errorf("%s: exit %d, the name not shown escaped: %q %q", cmd, code, out, errOut)
		}
		noControls(t, cmd, out+errOut)
		for _, line := range strings.Split(out+errOut, "\n") {
			if strings.HasPrefix(line, "ok") {
				t.Errorf("%s: a line of the name's own: %q", cmd, line)
			}
		}
	}
}
