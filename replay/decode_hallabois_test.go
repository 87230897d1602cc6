package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDecodeHallaboisRecording: a recording of the hallabois game, in
// either of its formats, is refused as one, with the command that
// converts it; text of neither shape is refused as before.
func TestDecodeHallaboisRecording(t *testing.T) {
	const says = "this looks like a hallabois recording, not a replay: convert it with tileproof import hallabois FILE"
	files, _ := filepath.Glob(filepath.Join("..", "peer", "hallabois", "testdata", "*.txt"))
	if len(files) < 10 {
		t.Fatalf("%d recordings under peer/hallabois/testdata", len(files))
	}
	in := map[string]bool{
		"2.0.0.0.0.2.0.0.0.0.0.0.0.0.0.0+1,0.4;3:2.4": true, // the first format without its size
		"10x12S0.0.0.2+1,0.4;0":                       true,
		"::":                                          true,
		"1.2.3":                                       false,
		"1.2+3":                                       false,
		"0.0.0.0\n":                                   false,
		"4x4S":                                        false,
		"4xS0.0.0.0+1":                                false,
		"a::":                                         false,
		"profile: classic\n":                          false,
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in[string(data)] = true
	}
	for data, want := range in {
		_, err := Decode("x", []byte(data))
		if err == nil || strings.Contains(err.Error(), says) != want {
			t.Errorf("%.40q: %v", data, err)
		}
	}
}
