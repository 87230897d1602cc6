// Command 2048c is an exec adapter (docs/protocol.md) for 2048.c, the
// terminal 2048 of Debian's package 2048 (github.com/mevdschee/2048.c,
// /usr/games/2048): it runs the real program under a pseudo-terminal,
// presses its keys and reads its screen back. The game can only start and
// take moves, so the adapter offers hello, new and move, and refuses
// everything else as unsupported. docs/2048c.md says how it works and
// what the suite found in the game.
//
// Usage:
//
//	2048c [-binary /usr/games/2048] [-scheme original|blackwhite|bluered]
//	      [-profile NAME] [-fast] [-clock N]
//	      [-restart] [-timeout 3s] [-trace FILE]
//
// -fast preloads a usleep that returns at once (shim/nosleep.c, compiled
// with cc at start), so that the game's 150 ms pause between frames takes
// no time. -clock N preloads a time() (shim/clock.c) that shows the
// game's first run the second N, its second run N+1, and so on: the game
// seeds itself with that second, so a series of games repeats exactly.
// -restart starts each new game with the game's own restart key (r, y)
// instead of a new run of the program, where one runs; -trace appends
// every byte the game writes to FILE, as the recordings in testdata were
// made.
//
// It uses the standard library, creack/pty and x/sys, and of tileproof's
// packages only conformance/internal/lineproto, the protocol's side it
// shares with the reference adapter: what it reports is what the screen
// showed, never what the engine would do.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
)

// defaultBinary is where Debian's package installs the game.
const defaultBinary = "/usr/games/2048"

// defaultProfile is the profile hello declares: the name in its profile
// file, 2048c.yaml, which the runner is given by the user (conform
// --profile PATH/2048c.yaml), from any directory: the runner reads no
// file an implementation names.
const defaultProfile = profileName

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program: it returns the exit status, 0 at the end of
// the input, 2 for a usage error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("2048c", flag.ContinueOnError)
	fs.SetOutput(stderr)
	binary := fs.String("binary", defaultBinary, "the game `program`")
	scheme := fs.String("scheme", "original", "the game's colour scheme: original, blackwhite or bluered")
	profile := fs.String("profile", defaultProfile, "the profile hello declares: a profile file's path or a `name`")
	fast := fs.Bool("fast", false, "preload a usleep that returns at once: no 150 ms pause between frames (needs cc)")
	clock := fs.Int64("clock", -1, "give the game's runs the clock seconds `N`, N+1, ...: a series of games that repeats (needs cc)")
	restart := fs.Bool("restart", false, "start new games with the game's restart key (r, y), not a new run of the program")
	timeout := fs.Duration("timeout", 3*time.Second, "how long to wait for each screen")
	traceFile := fs.String("trace", "", "append every byte the game writes to `FILE`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "2048c: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg := gameConfig{binary: *binary, timeout: *timeout}
	switch *scheme {
	case "original":
	case "blackwhite", "bluered":
		cfg.args = []string{*scheme}
	default:
		fmt.Fprintf(stderr, "2048c: -scheme %q is not original, blackwhite or bluered\n", *scheme)
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "2048c: -timeout must be positive")
		return 2
	}
	if *fast {
		shim, err := buildShim("nosleep", nosleepSource)
		if err != nil {
			fmt.Fprintln(stderr, "2048c: -fast:", err)
			return 2
		}
		defer shim.Close()
		cfg.nosleep = shim
	}
	if *clock >= 0 {
		shim, err := buildShim("clock", clockSource)
		if err != nil {
			fmt.Fprintln(stderr, "2048c: -clock:", err)
			return 2
		}
		defer shim.Close()
		cfg.clock, cfg.second = shim, *clock
	}
	if *traceFile != "" {
		f, err := os.OpenFile(*traceFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "2048c:", err)
			return 2
		}
		defer f.Close()
		cfg.trace = f
	}
	a := &adapter{cfg: cfg, restart: *restart, declared: *profile, version: version(*binary)}
	defer a.stop()
	lineproto.Serve(stdin, stdout, func(line []byte) ([]byte, error) { return a.handle(line), nil })
	return 0 // at the end of the input, or when the runner is gone
}

// version is the program's version as Debian's package manager knows it:
// the game has no version option of its own.
func version(binary string) string {
	if binary != defaultBinary {
		return "unknown"
	}
	out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "2048").Output()
	if v := strings.TrimSpace(string(out)); err == nil && v != "" {
		return v
	}
	return "unknown"
}
