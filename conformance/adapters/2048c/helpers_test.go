package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The tests that need the real program skip when it is not installed,
// unless TILEPROOF_2048C=required (as in CI), when they fail.

func needGame(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(defaultBinary); err != nil {
		if os.Getenv("TILEPROOF_2048C") == "required" {
			t.Fatalf("TILEPROOF_2048C=required, but %s is not there: %v", defaultBinary, err)
		}
		t.Skipf("%s is not installed (apt-get install 2048); TILEPROOF_2048C=required makes this a failure", defaultBinary)
	}
}

// needShim returns the -fast shim, or skips without a C compiler (a
// failure with TILEPROOF_2048C=required).
func needShim(t testing.TB) *os.File {
	t.Helper()
	return needShimOf(t, "nosleep", nosleepSource)
}

// needShimOf returns a shim, compiled.
func needShimOf(t testing.TB, name string, source []byte) *os.File {
	t.Helper()
	needGame(t)
	shim, err := buildShim(name, source)
	if err != nil {
		if os.Getenv("TILEPROOF_2048C") == "required" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	t.Cleanup(func() { shim.Close() })
	return shim
}

// testConfig is how the tests run the game: fast when shim is not nil.
// No test waits out its timeout, which only bounds a hang: it is long, as
// a loaded machine can delay a screen by seconds (TestBrokenScreens's 2 s
// failed at load 16).
func testConfig(shim *os.File) gameConfig {
	return gameConfig{binary: defaultBinary, nosleep: shim, timeout: 15 * time.Second}
}

// readRecording reads testdata/NAME.raw, or NAME.raw.gz uncompressed.
func readRecording(t testing.TB, name string) []byte {
	t.Helper()
	path := filepath.Join("testdata", name+".raw")
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		var z []byte
		if z, err = os.ReadFile(path + ".gz"); err == nil {
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(bytes.NewReader(z)); err == nil {
				data, err = io.ReadAll(zr)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// eventText writes events as the testdata's .events files hold them: one
// line an event, a frame's score on its line and its board below.
func eventText(events []Event) string {
	var sb strings.Builder
	for _, e := range events {
		if e.Kind != FrameDrawn {
			fmt.Fprintf(&sb, "%s\n", e.Kind)
			continue
		}
		fmt.Fprintf(&sb, "frame score %d\n", e.Frame.Score)
		for _, row := range e.Frame.Board {
			sb.WriteString("   ")
			for _, v := range row {
				if v == 0 {
					fmt.Fprintf(&sb, " %6s", ".")
				} else {
					fmt.Fprintf(&sb, " %6d", v)
				}
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// parseAll feeds data to a new parser in the pieces cut at the given
// offsets (ascending) and returns every event; the events' End offsets
// are zeroed, so that events read in different pieces compare equal.
func parseAll(data []byte, cuts []int) ([]Event, error) {
	var p Parser
	var all []Event
	prev := 0
	for _, c := range append(cuts, len(data)) {
		events, err := p.Feed(data[prev:c])
		all = append(all, events...)
		if err != nil {
			return all, err
		}
		prev = c
	}
	for i := range all {
		all[i].End = 0
	}
	return all, nil
}
