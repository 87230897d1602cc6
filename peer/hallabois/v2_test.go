package hallabois

import (
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseV2(t *testing.T) {
	rec, err := ParseV2("f", []byte("::2:2:2:2:IT4sEQ:extra:more\r\nA comment\nline two"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.W != 2 || rec.H != 2 || rec.Seed != 2 || rec.Extra != "extra:more" || rec.Comment != "A comment\nline two" {
		t.Errorf("%+v", rec)
	}
	if got := movesText(rec.Moves); got != "DDDLLRDLR" {
		t.Errorf("moves %s; want DDDLLRDLR", got)
	}
	// The peer's number reader takes a "+" and leading zeros.
	rec, err = ParseV2("f", []byte("::+2:03:+3:0004294967295:"))
	if err != nil || rec.W != 3 || rec.H != 3 || rec.Seed != 4294967295 || len(rec.Moves) != 0 {
		t.Errorf("%+v, %v", rec, err)
	}
}

func movesText(moves []Dir) string {
	b := make([]byte, len(moves))
	for i, d := range moves {
		b[i] = d.Letter()
	}
	return string(b)
}

// TestDecodeMovesVectors checks the moves field against numbers worked out
// by hand: the bytes are base-64 digits, least significant first, and the
// moves the base-6 digits of the number (1 up, 2 right, 3 down, 4 left, 5
// break, 0 end).
func TestDecodeMovesVectors(t *testing.T) {
	for _, c := range []struct{ field, want string }{
		{"", ""},
		{"AQ", "U"},    // the byte 1: 1
		{"AA", "."},    // the byte 0: 64^0 has one base-6 digit, so one 0
		{"AAE", "LLU"}, // 0, 1: 64 = 1*36 + 4*6 + 4, digits 4 4 1
		{"AQA", "U.."}, // 1, 0: 1, kept to the three digits of 64
		{"/w", "D.UU"}, // 255 = 1*216 + 1*36 + 0*6 + 3
		// 255, 255: 255 + 255*64 = 16575 = 2*7776 + 0*1296 + 4*216 +
		// 4*36 + 2*6 + 3 (bytes above 63 overlap the next digit).
		{"//8", "DRLL.R"},
		{"IT4sEQ", "DDDLLRDLR"}, // testdata/v2-2x2.txt
	} {
		raw, err := base64.RawStdEncoding.Strict().DecodeString(c.field)
		if err != nil {
			t.Fatal(err)
		}
		if got := movesText(decodeMoves(raw)); got != c.want {
			t.Errorf("%q: %s; want %s", c.field, got, c.want)
		}
	}
}

func TestParseV2Errors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"4x4S0;0", "f: byte 1: does not start with \"::\" (the second format's mark)"},
		{"::2:4:4:1", "f: byte 10: no moves field (the fields are version, width, height, seed, moves)"},
		{"::", "f: byte 3: version: \"\" is not a number"},
		{"::2:4", "f: byte 6: no height field (the fields are version, width, height, seed, moves)"},
		{"::3:4:4:1:", "f: byte 3: version 3; the second format is version 2"},
		{"::x:4:4:1:", "f: byte 3: version: \"x\" is not a number"},
		{"::256:4:4:1:", "f: byte 3: version: \"256\" is above 255"},
		{"::2:7:4:1:", "f: byte 5: a 7x4 board is outside 2x2 to 6x6"},
		{"::2:4:1:1:", "f: byte 5: a 4x1 board is outside 2x2 to 6x6"},
		{"::2:4:-4:1:", "f: byte 7: height: \"-4\" is not a number"},
		{"::2:4:4:4294967296:", "f: byte 9: seed: \"4294967296\" is above 4294967295"},
		{"::2:4:4: 1:", "f: byte 9: seed: \" 1\" is not a number"},
		{"::2:4:4:1:AQ==", "f: byte 13: moves: '=' is not a base64 character (A-Z a-z 0-9 + /, no padding)"},
		{"::2:4:4:1:A\rQ", "f: byte 12: moves: '\\r' is not a base64 character (A-Z a-z 0-9 + /, no padding)"},
		{"::2:4:4:1:AQ\r", "f: byte 13: moves: '\\r' is not a base64 character (A-Z a-z 0-9 + /, no padding)"},
		{"::2:4:4:1:A", "f: byte 11: moves: not base64 without padding (the last group of characters is cut short, or its last character leaves bits over)"},
		{"::2:4:4:1:AQAAR", "f: byte 15: moves: not base64 without padding (the last group of characters is cut short, or its last character leaves bits over)"},
	} {
		_, err := ParseV2("f", []byte(c.in))
		var e *RecordingError
		if !errors.As(err, &e) || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	// At the limit the moves are read; a byte more is refused.
	field := strings.Repeat("A", (MaxV2MoveBytes/3)*4)
	if _, err := ParseV2("f", []byte("::2:4:4:1:"+field)); err != nil {
		t.Errorf("%d bytes of moves: %v", MaxV2MoveBytes, err)
	}
	if _, err := ParseV2("f", []byte("::2:4:4:1:"+field+"AAAA")); err == nil || !strings.Contains(err.Error(), "bytes; the moves are read up to") {
		t.Errorf("%d bytes of moves: %v", MaxV2MoveBytes+3, err)
	}
	if _, err := ParseV2("f", make([]byte, MaxV2Bytes+1)); err == nil || !strings.Contains(err.Error(), "bytes; a second-format recording is read up to") {
		t.Errorf("%d bytes: %v", MaxV2Bytes+1, err)
	}
}

// TestV2RoundTrip writes random move lists and reads them back: the same
// moves, unless the list ends with end markers, which the packing keeps
// only as far as the number's length does.
func TestV2RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 3, 7, 16, 17, 33, 100, 1000, 5000} {
		for range 5 {
			moves := make([]Dir, n)
			for i := range moves {
				moves[i] = v2Dirs[r.IntN(6)]
			}
			if n > 0 && moves[n-1] == End {
				moves[n-1] = Up
			}
			rec := &V2{W: 4, H: 4, Seed: r.Uint32(), Moves: moves}
			back, err := ParseV2("f", []byte(rec.String()))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.Moves, moves) || back.Seed != rec.Seed {
				t.Fatalf("%d moves read back as %d, or another seed", n, len(back.Moves))
			}
		}
	}
	// A trailing end marker: U. packs as the number 1, one base-64 digit,
	// which reads back as U alone.
	if back, _ := ParseV2("f", []byte((&V2{W: 2, H: 2, Moves: []Dir{Up, End}}).String())); movesText(back.Moves) != "U" {
		t.Errorf("U. reads back as %s", movesText(back.Moves))
	}
}

// TestV2Corpus checks that the corpus's second-format games write back as
// their first line, byte for byte.
func TestV2Corpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpusDir(t), "v2", "*.txt"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ParseV2(f, data)
		if err != nil {
			t.Fatal(err)
		}
		line, _, _ := strings.Cut(string(data), "\n")
		if got := rec.String(); got != strings.TrimSuffix(line, "\r") {
			t.Errorf("%s writes back as\n%s", f, got)
		}
	}
}

// FuzzParseV2 feeds the second-format reader anything: no panic, errors
// that are *Error naming the file and a byte inside the input, and a
// recording it reads writes and reads back with the same moves (but for
// trailing end markers) and validates without a panic.
func FuzzParseV2(f *testing.F) {
	files, _ := filepath.Glob("testdata/v2-*.txt")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte("::2:3:3:0:////"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseV2("fuzz", data)
		if err != nil {
			var e *RecordingError
			if !errors.As(err, &e) || e.File != "fuzz" || e.Byte < 0 || e.Byte > len(data)+1 || e.Entry != 0 {
				t.Fatalf("error %#v", err)
			}
			return
		}
		if rec.W < MinSide || rec.W > MaxSide || rec.H < MinSide || rec.H > MaxSide {
			t.Fatalf("%dx%d", rec.W, rec.H)
		}
		back, err := ParseV2("again", []byte(rec.String()))
		if err != nil {
			t.Fatalf("String wrote what the reader refuses: %v", err)
		}
		trim := func(m []Dir) []Dir {
			for len(m) > 0 && m[len(m)-1] == End {
				m = m[:len(m)-1]
			}
			return m
		}
		if !slices.Equal(trim(back.Moves), trim(slices.Clone(rec.Moves))) {
			t.Fatalf("the moves read back differently")
		}
		res := ValidateV2(rec)
		if res.Valid != (res.Problem == nil) || res.Problem != nil && (res.Problem.At < 1 || res.Problem.At > len(rec.Moves)) {
			t.Fatalf("valid %v, problem %v", res.Valid, res.Problem)
		}
	})
}
