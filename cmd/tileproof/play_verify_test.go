package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestVerifyCommand runs the command play suggests, as a shell reads it,
// for names that look like flags or stdin: it verifies the file written.
func TestVerifyCommand(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	t.Chdir(t.TempDir())
	_, replayText, _ := runCLI(t, "", "record", "--seed", "7", "--moves", "LLUR")
	for _, name := range []string{"-", "-x.yaml", "--json", "g's game.yaml"} {
		if err := os.WriteFile(name, []byte(replayText), 0o644); err != nil {
			t.Fatal(err)
		}
		line := verifyCommand(name)
		out, err := exec.Command(sh, "-c", "set -- "+line+"\n"+`for a; do printf '%s\0' "$a"; done`).Output()
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(args) != 3 || args[0] != "tileproof" {
			t.Fatalf("%s: %q", line, args)
		}
		code, stdout, stderr := runCLI(t, "", args[1:]...)
		if code != 0 || !strings.HasPrefix(stdout, "ok ") || !strings.Contains(stdout, name+": score 12") {
			t.Errorf("%s: exit %d\n%s%s", line, code, stdout, stderr)
		}
	}
}
