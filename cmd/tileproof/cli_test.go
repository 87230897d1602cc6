package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// runCLI runs the command in-process with args and returns its exit code,
// stdout and stderr.
func runCLI(t testing.TB, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut}
	code := c.main(args)
	return code, out.String(), errOut.String()
}

// TestExitCodes holds the exit codes of the command's outcomes: 0 all
// good, 1 the input read and failing, 2 a usage error or unreadable input.
func TestExitCodes(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	replays := func(p string) string { return filepath.Join(root, "replays", p) }
	for _, tc := range []struct {
		args []string
		code int
		msg  string // in stderr
	}{
		{[]string{"--help"}, exitOK, ""},
		{[]string{"version"}, exitOK, ""},
		{[]string{"verify", replays("valid"), "--json"}, exitOK, "replays: "},
		{[]string{"verify", replays("tampered/move-changed.yaml")}, exitFailed, ""},
		{[]string{"verify", replays("unreadable/unknown-field.yaml")}, exitBadUsage, ""},
		{[]string{"show", replays("valid/committed-seed.yaml")}, exitOK, ""},
		{[]string{"show", replays("tampered/move-changed.yaml")}, exitFailed, ""},
		{[]string{"show", replays("tampered/move-changed.yaml"), "--step", "3"}, exitFailed, ""},
		{[]string{"show", replays("unreadable/rules-version-2.yaml")}, exitBadUsage, "cannot be replayed"},
		{[]string{"line", "2", "2"}, exitOK, ""},
		{[]string{"line", "2", "-4"}, exitBadUsage, "cell 1: -4 is negative"},
		{[]string{"play", "--seed", "7", "--moves", "LLL"}, exitFailed, "action 3 (left)"},
		{[]string{"conform"}, exitBadUsage, "give --impl"},
		{[]string{"verfy"}, exitBadUsage, "Did you mean this?\n\tverify"},
		{[]string{"verify", "--bogus", "x"}, exitBadUsage, "unknown flag: --bogus"},
		{[]string{"verify", "-json", "x"}, exitBadUsage, "-json: a flag takes two dashes: --json"},
		{[]string{"verify", "--workers", "010x", "x"}, exitBadUsage, `--workers "010x": want an integer`},
		{[]string{"verify", "--workers", "-1", "x"}, exitBadUsage, "--workers -1: give 1 or more, or 0 for one a CPU"},
		{[]string{"show", "--step", "0x1", "x"}, exitBadUsage, `--step "0x1": want an integer`},
		{[]string{"record", "--seed", "7", "--player", "nosuch"}, exitBadUsage, `no player "nosuch"; the players are expectimax and random`},
		{[]string{"cases"}, exitBadUsage, "usage: tileproof cases"},
		{[]string{"cases", "lint", "--help"}, exitOK, ""},
		{[]string{"serve", "--addr", "127.0.0.1:-1", "--key-file", os.DevNull}, exitBadUsage, "the key is empty"}, // an address that cannot be listened on: never a server left running
		{[]string{}, exitBadUsage, "usage: tileproof COMMAND"},
		{[]string{"help", "nosuch"}, exitBadUsage, `help: unknown command "nosuch"`},
		{[]string{"completion"}, exitBadUsage, "usage: tileproof completion"},
	} {
		code, _, stderr := runCLI(t, "", tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.msg) {
			t.Errorf("tileproof %s: exit %d, want %d; stderr %q, want it to hold %q", strings.Join(tc.args, " "), code, tc.code, stderr, tc.msg)
		}
	}
}

// commandPaths returns every command of the tree below root, as the
// arguments that name it ("cases", "lint"), the hidden ones left out.
func commandPaths(cmd *cobra.Command, path []string) [][]string {
	var out [][]string
	for _, sub := range cmd.Commands() {
		if sub.Hidden || sub.Name() == "help" {
			continue
		}
		p := append(append([]string{}, path...), sub.Name())
		out = append(out, p)
		out = append(out, commandPaths(sub, p)...)
	}
	return out
}

// maxHelpWidth is the longest line a command's help may have: its
// paragraphs are wrapped at about 92 characters, its flags' lines at
// about 96.
const maxHelpWidth = 100

// TestHelpEveryCommand asks every command for --help and -h: exit 0, the
// help on stdout in lines of at most maxHelpWidth characters, a usage line,
// and every flag of the command listed once, spelled --name, its value
// named in capitals, with its default stated at most once.
func TestHelpEveryCommand(t *testing.T) {
	c := &cli{}
	root := c.rootCommand()
	root.InitDefaultHelpCmd()
	paths := append(commandPaths(root, nil), nil)
	if len(paths) < 14 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	singleDash := regexp.MustCompile(`(^|[\s(])-[a-z][a-z-]+`)
	for _, path := range paths {
		name := strings.TrimSpace("tileproof " + strings.Join(path, " "))
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, h := range []string{"--help", "-h"} {
			code, stdout, stderr := runCLI(t, "", append(append([]string{}, path...), h)...)
			if code != exitOK || stderr != "" {
				t.Errorf("%s %s: exit %d, stderr %q", name, h, code, stderr)
			}
			if !strings.Contains(stdout, "usage: "+name) {
				t.Errorf("%s %s: no usage line for %q:\n%s", name, h, name, stdout)
			}
			if m := singleDash.FindString(stdout); m != "" {
				t.Errorf("%s %s: a flag spelled with one dash, %q:\n%s", name, h, m, stdout)
			}
			for _, line := range strings.Split(stdout, "\n") {
				if strings.Count(line, "(default") > 1 {
					t.Errorf("%s %s: a default stated twice: %q", name, h, line)
				}
				if n := utf8.RuneCountInString(line); n > maxHelpWidth {
					t.Errorf("%s %s: a line of %d characters, over %d: %q", name, h, n, maxHelpWidth, line)
				}
			}
			cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
				re := regexp.MustCompile(`(?m)^  (-[a-z], |    )--` + regexp.QuoteMeta(f.Name) + `( |$)`)
				if n := len(re.FindAllString(stdout, -1)); n != 1 {
					t.Errorf("%s %s: --%s listed %d times:\n%s", name, h, f.Name, n, stdout)
				}
				// A flag that takes a value names what to give (--timeout
				// DURATION), not the type pflag would print (duration).
				if arg, _ := pflag.UnquoteUsage(f); arg != "" && arg != strings.ToUpper(arg) {
					t.Errorf("%s %s: --%s %s: name its value in capitals, as the other flags do", name, h, f.Name, arg)
				}
			})
		}
	}
}

// TestVersionText holds tileproof version to the versions it reports: the
// engine's profiles, the pack built in, the protocol and the generator.
func TestVersionText(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "version")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	pack, err := conformance.DefaultPack()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		fmt.Sprintf("cases      %s %s, rules contract %d, %d cases", pack.Name, pack.Version, pack.Contract, len(pack.Cases)),
		fmt.Sprintf("exec protocol %d ", protocol.Version),
		protocol.StateFormat,
		"generator  " + engine.RNGID,
	}
	for _, name := range engine.BuiltinNames() {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprintf(" %s %d", p.Name, p.Version))
	}
	for _, w := range want {
		if !strings.Contains(stdout, w) {
			t.Errorf("the version text lacks %q:\n%s", w, stdout)
		}
	}
	_, flagOut, _ := runCLI(t, "", "--version")
	if flagOut != stdout {
		t.Errorf("--version prints\n%s\ntileproof version prints\n%s", flagOut, stdout)
	}
}

// TestSigningKey: a key file's content trimmed, else TILEPROOF_KEY, else
// none; a key given but shorter than 32 bytes, or empty, an error.
func TestSigningKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key32 := strings.Repeat("k", 32)
	env := func(v string, set bool) func(string) (string, bool) {
		return func(name string) (string, bool) {
			if name != "TILEPROOF_KEY" {
				t.Errorf("looked up %s", name)
			}
			return v, set
		}
	}
	for _, tc := range []struct {
		name    string
		file    string
		env     func(string) (string, bool)
		want    string // the key, or
		wantErr string // the error
	}{
		{"none", "", env("", false), "", ""},
		{"file", write("ok", "\n  "+key32+"\n"), env("", false), key32, ""},
		{"file over env", write("ok2", key32), env("other-key-other-key-other-key-xx", true), key32, ""},
		{"env", "", env(key32, true), key32, ""},
		{"short file", write("short", strings.Repeat("k", 31)), env("", false), "", "the key is 31 bytes"},
		{"blank file", write("blank", " \n\t\n"), env("", false), "", "the key is empty"},
		{"empty env", "", env("", true), "", "TILEPROOF_KEY: the key is empty"},
		{"short env", "", env("abc", true), "", "TILEPROOF_KEY: the key is 3 bytes"},
		{"blank env", "", env(strings.Repeat(" ", 40), true), "", "TILEPROOF_KEY: the key is empty"},
		{"env with a newline", "", env(key32+"\n", true), key32, ""},
		{"big file", write("big", strings.Repeat("k", maxKeyFileSize+1)), env("", false), "", "larger than"},
	} {
		key, err := signingKey(tc.file, tc.env)
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || string(key) != tc.want):
			t.Errorf("%s: key %q, error %v; want %q", tc.name, key, err, tc.want)
		}
	}
}

// TestProtectArgs: an argument that looks like a negative number is
// marked (and the mark removed before the command sees it); a flag's
// value, and everything after --, is left alone; a long flag with one
// dash is an error.
func TestProtectArgs(t *testing.T) {
	root := (&cli{}).rootCommand()
	for _, tc := range []struct {
		in, want []string
		err      string
	}{
		{[]string{"line", "2", "-4"}, []string{"line", "2", argMark + "-4"}, ""},
		{[]string{"show", "--step", "-1", "r.yaml"}, []string{"show", "--step", "-1", "r.yaml"}, ""},
		{[]string{"show", "--step=-1", "-5.yaml"}, []string{"show", "--step=-1", argMark + "-5.yaml"}, ""},
		{[]string{"show", "-o", "-2.html", "--html", "r.yaml"}, []string{"show", "-o", "-2.html", "--html", "r.yaml"}, ""},
		{[]string{"line", "--", "-4"}, []string{"line", "--", "-4"}, ""},
		{[]string{"verify", "-json", "x"}, nil, "-json: a flag takes two dashes: --json"},
		{[]string{"play", "--seed", "-json"}, []string{"play", "--seed", "-json"}, ""},
		{[]string{"-4"}, []string{"-4"}, ""}, // no command: cobra reports it
	} {
		got, _, err := protectArgs(root, tc.in)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || strings.Join(got, "|") != strings.Join(tc.want, "|")):
			t.Errorf("%q: %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
	if got := unprotect([]string{argMark + "-4", "2"}); got[0] != "-4" || got[1] != "2" {
		t.Errorf("unprotect: %q", got)
	}
}

// TestDecimalFlags: the number flags read decimal only.
func TestDecimalFlags(t *testing.T) {
	var n int
	var u uint64
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	numFlag(fs, &n, "n", 7, "")
	numFlag(fs, &u, "u", 9, "")
	if n != 7 || u != 9 {
		t.Fatalf("defaults %d %d", n, u)
	}
	if err := fs.Parse([]string{"--n", "010", "--u", "010"}); err != nil || n != 10 || u != 10 {
		t.Errorf("010: %d %d (%v), want 10 10", n, u, err)
	}
	for _, bad := range [][]string{{"--n", "0x10"}, {"--u", "0x10"}, {"--u", "-1"}, {"--n", "1e3"}, {"--n", ""}} {
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	var stepN int
	step := decimal[int]{p: &stepN, unset: "the last"}
	if step.String() != "the last" || step.set {
		t.Errorf("unset step: %q %v", step.String(), step.set)
	}
	if err := step.Set("-1"); err != nil || !step.set || stepN != -1 {
		t.Errorf("step -1: %+v %v", step, err)
	}
}

// BenchmarkStart is the cost of the command line before the work: the
// command tree built and "line 2 2" parsed and run, against the work
// alone (the merge and its output) as the baseline.
func BenchmarkStart(b *testing.B) {
	var out bytes.Buffer
	c := &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &out}
	b.Run("work-alone", func(b *testing.B) {
		cmd := c.lineCommand()
		for b.Loop() {
			out.Reset()
			c.line(cmd, "", []string{"2", "2"})
		}
	})
	b.Run("command-line", func(b *testing.B) {
		for b.Loop() {
			out.Reset()
			if c.main([]string{"line", "2", "2"}) != exitOK {
				b.Fatal(out.String())
			}
		}
	})
}

var updateDoc = flag.Bool("update-doc", false, "rewrite the generated part of docs/cli.md")

// cliDocMarker begins the part of docs/cli.md that TestCLIDoc writes.
const cliDocMarker = "<!-- Generated from the commands' help by go test ./cmd/tileproof -run TestCLIDoc -update-doc: edit the help, not this part. -->\n"

// TestCLIDoc holds the part of docs/cli.md below its marker to the help
// of every command, so the page never drifts from the command;
// -update-doc rewrites it.
func TestCLIDoc(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "cli.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	head, _, ok := strings.Cut(string(data), cliDocMarker)
	if !ok {
		t.Fatalf("%s has no marker line %q", file, cliDocMarker)
	}
	var b strings.Builder
	b.WriteString(cliDocMarker)
	root := (&cli{}).rootCommand()
	for _, path := range append([][]string{nil}, commandPaths(root, nil)...) {
		if len(path) > 0 && path[0] == "completion" && len(path) > 1 {
			continue // cobra's own help for each shell
		}
		code, stdout, _ := runCLI(t, "", append(append([]string{}, path...), "--help")...)
		if code != exitOK {
			t.Fatalf("tileproof %s --help: exit %d", strings.Join(path, " "), code)
		}
		fmt.Fprintf(&b, "\n## %s\n\n```\n%s```\n", strings.TrimSpace("tileproof "+strings.Join(path, " ")), stdout)
	}
	want := head + b.String()
	if *updateDoc {
		if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(data) != want {
		t.Errorf("%s is not the commands' help: run go test ./cmd/tileproof -run TestCLIDoc -update-doc (and read the diff)", file)
	}
}

// FuzzCommandLine feeds arbitrary command lines (the arguments split at
// line ends) to the parser, without running the command: protectArgs,
// then cobra finding the command and parsing its flags. It must answer or
// refuse, never panic, and no argument the command would see may keep
// protectArgs' mark.
func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{"verify\n--json\nx", "line\n2\n-4", "show\n--step\n-1\nr.yaml", "cases\nlint\n-h",
		"verify\n-json", "--\n-4", "play\n-o", "conform\n--explore=-2\n-v", "line\n--json\n-\n-5", "record\n--seed=-x\n--\n-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Contains(s, argMark) {
			return // a command line never holds a NUL byte
		}
		args := strings.Split(s, "\n")
		root := (&cli{}).rootCommand()
		out, _, err := protectArgs(root, args)
		if err != nil {
			return
		}
		if len(out) != len(args) {
			t.Fatalf("%q became %q", args, out)
		}
		cmd, rest, err := root.Find(out)
		if err != nil {
			return
		}
		if err := cmd.ParseFlags(rest); err != nil {
			return
		}
		for _, a := range unprotect(cmd.Flags().Args()) {
			if strings.Contains(a, argMark) {
				t.Fatalf("%q: the argument %q keeps the mark", args, a)
			}
		}
	})
}

// TestTotalNote: the note under conform's summary counts the runs of the
// cases (each case under each profile), the distinct cases and the
// property checks, and points to -v only when something was skipped and
// -v was not given. The skips' note names the features they need, the
// most needed first (a skip for two counts for both; a not-applicable
// one, or a skip for another reason, for none).
func TestTotalNote(t *testing.T) {
	rep := &conformance.Report{Results: []conformance.CaseResult{
		{Case: "core/a", Area: "core", Profile: "classic", Status: conformance.Pass},
		{Case: "core/a", Area: "core", Profile: "pgs", Status: conformance.Pass},
		{Case: "core/b", Area: "core", Profile: "classic", Status: conformance.Skip, Reason: "needs load-state, undo"},
		{Case: "core/b", Area: "core", Profile: "pgs", Status: conformance.Skip, Reason: "needs load-state"},
		{Case: "core/d", Area: "core", Profile: "pgs", Status: conformance.Skip, Reason: "needs force-spawn, size:3x3"},
		{Case: "core/e", Area: "core", Profile: "pgs", Status: conformance.Skip, Reason: "it cannot run under this profile: needs a board"},
		{Case: "core/c", Area: "core", Profile: "classic", Status: conformance.Skip, NotApplicable: true, Reason: "needs undo"},
		{Case: "line/c", Area: "line", Profile: "classic", Status: conformance.Pass},
		{Case: "properties/same-seed", Area: "properties", Profile: "classic", Status: conformance.Pass},
	}}
	var b strings.Builder
	writeTotalNote(&b, rep, false)
	count := "" // where int has 32 bits, one more reason
	if strconv.IntSize == 32 {
		count = ", or starts past 2^31-1 moves, the most a 32-bit build counts"
	}
	want := "  (total: 8 runs of 6 cases, each under every profile it applies to, and 1 property check)\n" +
		"  (4 skipped: each needs a feature or a board size the implementation does not declare: load-state for 2, force-spawn for 1, size:3x3 for 1, undo for 1; -v lists them with why)\n" +
		"  (1 not applicable: each needs a board size, undo, End run or keep playing its profile's rules do not have, or is a case the engine cannot derive under a profile file's rules or a property check the suite has for 4x4 boards only" + count + "; not skips, they do not fail --strict; -v lists them with why)\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	writeTotalNote(&b, rep, true)
	if strings.Contains(b.String(), "-v lists") {
		t.Errorf("with -v, the note still points to -v:\n%s", b.String())
	}
}
