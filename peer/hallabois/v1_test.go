package hallabois

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseV1(t *testing.T) {
	data, err := os.ReadFile("testdata/v1-3x3.txt")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ParseV1("v1-3x3.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.W != 3 || rec.H != 3 || !rec.Sized || len(rec.Entries) != 6 {
		t.Fatalf("%dx%d, sized %v, %d entries; want 3x3, sized, 6", rec.W, rec.H, rec.Sized, len(rec.Entries))
	}
	e := rec.Entries[0]
	if want := (Grid{3, 3, []uint64{2, 0, 2, 0, 0, 0, 0, 0, 0}}); !e.Board.Equal(want) || *e.Spawn != (RecordedSpawn{1, 1, 2}) || e.Dir != Left || e.DirText != "3" || e.Byte != 5 {
		t.Errorf("entry 1: %v %+v %v %q byte %d", e.Board.Cells, e.Spawn, e.Dir, e.DirText, e.Byte)
	}
	if last := rec.Entries[5]; last.Spawn != nil || last.Dir != End || last.DirText != "f" {
		t.Errorf("the last entry: %+v %v %q", last.Spawn, last.Dir, last.DirText)
	}
}

// TestParseV1Forms checks what the peer's reader accepts: no size (4x4),
// numbers with leading zeros, and every direction text. (A "+" before a
// number, which the peer's number reader takes, cannot occur: it is the
// separator of the spawn.)
func TestParseV1Forms(t *testing.T) {
	rec, err := ParseV1("f", []byte("0.0.0.0.0.002.0.0.0.0.0.0.0.0.02.0+1,0.2;0"))
	if err != nil {
		t.Fatal(err)
	}
	if rec.W != 4 || rec.H != 4 || rec.Sized || rec.Entries[0].Board.Cells[5] != 2 || rec.Entries[0].Board.Cells[14] != 2 {
		t.Errorf("%dx%d sized %v %v", rec.W, rec.H, rec.Sized, rec.Entries[0].Board.Cells)
	}
	for text, want := range map[string]Dir{"0": Up, "1": Right, "2": Down, "3": Left, "6": Break, "b": Break,
		"f": End, "e": End, "4": End, "": End, "3\n": End, "left": End} {
		rec, err := ParseV1("f", []byte("2x2S2.0.0.2+;"+text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if e := rec.Entries[0]; e.Dir != want || e.DirText != text {
			t.Errorf("the direction %q reads as %v (%q); want %v", text, e.Dir, e.DirText, want)
		}
	}
}

func TestParseV1Errors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"3x4S0;0", "f: byte 1: the size \"3x4\" before \"S\": 3x4 is not square; the format's own reader places the cells right only on square boards"},
		{"7x7S0;0", "f: byte 1: the size \"7x7\" before \"S\": 7x7 is outside 2x2 to 6x6"},
		{"1x1S0;0", "f: byte 1: the size \"1x1\" before \"S\": 1x1 is outside 2x2 to 6x6"},
		{"4x4x4S0;0", "f: byte 1: the size \"4x4x4\" before \"S\": is not WIDTHxHEIGHT"},
		{"axbS0;0", "f: byte 1: the size \"axb\" before \"S\": width: \"a\" is not a number"},
		{"2x2S0.0.0.0;0S", "f: byte 14: a second \"S\"; only the size is followed by one"},
		{"2x2S0.0.0.0", "f: entry 1, byte 5: no \";\" and direction after the board"},
		{"2x2S0.0.0.0;0:0.0.0.0;1;2", "f: entry 2, byte 24: a second \";\" in the entry"},
		{"2x2S0.0.0.0+0,0.2+;0", "f: entry 1, byte 18: a second \"+\" in the entry"},
		{"2x2S0.0.0.0.0;0", "f: entry 1, byte 13: more than the 4 cells of a 2x2 board"},
		{"2x2S0.0.0;0", "f: entry 1, byte 10: 3 cells; a 2x2 board has 4"},
		{"2x2S0.0.x.0;0", "f: entry 1, byte 9: cell 3: \"x\" is not a number"},
		{"2x2S0.0..0;0", "f: entry 1, byte 9: cell 3: \"\" is not a number"},
		{"2x2S0.-2.0.0;0", "f: entry 1, byte 7: cell 2: \"-2\" is not a number"},
		{"2x2S18446744073709551616.0.0.0;0", "f: entry 1, byte 5: cell 1: \"18446744073709551616\" is above 18446744073709551615"},
		{"2x2S0.0.0.0+1,1;0", "f: entry 1, byte 13: the spawn \"1,1\": is not X,Y.VALUE"},
		{"2x2S0.0.0.0+1.2;0", "f: entry 1, byte 13: the spawn \"1.2\": is not X,Y.VALUE"},
		{"2x2S0.0.0.0+2,0.2;0", "f: entry 1, byte 13: the spawn \"2,0.2\": cell (2,0) is off the 2x2 board"},
		{"2x2S0.0.0.0+0,x.2;0", "f: entry 1, byte 13: the spawn \"0,x.2\": y: \"x\" is not a number"},
		{"2x2S0.0.0.0+0,0.2.2;0", "f: entry 1, byte 13: the spawn \"0,0.2.2\": is not X,Y.VALUE"},
		{"", "f: entry 1, byte 1: no \";\" and direction after the board"},
	} {
		_, err := ParseV1("f", []byte(c.in))
		var e *RecordingError
		if !errors.As(err, &e) || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.in, err, c.want)
		}
	}
	big := strings.Repeat(":", MaxV1Entries)
	if _, err := ParseV1("f", []byte(big)); err == nil || !strings.Contains(err.Error(), "100001 entries; a recording is read up to 100000") {
		t.Errorf("%d entries: %v", MaxV1Entries+1, err)
	}
	if _, err := ParseV1("f", make([]byte, MaxV1Bytes+1)); err == nil || !strings.Contains(err.Error(), "bytes; a first-format recording is read up to") {
		t.Errorf("%d bytes: %v", MaxV1Bytes+1, err)
	}
}

// TestStringV1 checks that String writes what the reader read, byte for
// byte, for the recordings of testdata and of the peer's corpus (when it
// is there).
func TestStringV1(t *testing.T) {
	files, _ := filepath.Glob("testdata/v1-*.txt")
	more, _ := filepath.Glob(filepath.Join(corpusPath(), "v1", "*.txt")) // none when the corpus is absent
	files = append(files, more...)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ParseV1(f, data)
		if err != nil {
			t.Fatal(err)
		}
		want := string(data)
		if !rec.Sized {
			want = "4x4S" + want
		}
		if got := rec.String(); got != want {
			t.Errorf("%s: String writes another text (%d bytes, the file %d)", f, len(got), len(want))
		}
	}
}

// FuzzParseV1 feeds the first-format reader anything: it must not panic,
// its errors must be *Error naming the file and a byte inside the input,
// and a recording it reads must write (String) and read back the same,
// and validate without a panic.
func FuzzParseV1(f *testing.F) {
	files, _ := filepath.Glob("testdata/v1-*.txt")
	for _, p := range files {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte("2x2S2.0.0.2+1,0.2;1:0.2.2.2+;f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ParseV1("fuzz", data)
		if err != nil {
			var e *RecordingError
			if !errors.As(err, &e) || e.File != "fuzz" || e.Byte < 0 || e.Byte > len(data)+1 || e.Entry < 0 {
				t.Fatalf("error %#v", err)
			}
			return
		}
		if rec.W != rec.H || rec.W < MinSide || rec.W > MaxSide || len(rec.Entries) == 0 {
			t.Fatalf("%dx%d, %d entries", rec.W, rec.H, len(rec.Entries))
		}
		again, err := ParseV1("again", []byte(rec.String()))
		if err != nil {
			t.Fatalf("String wrote what the reader refuses: %v", err)
		}
		if len(again.Entries) != len(rec.Entries) {
			t.Fatalf("%d entries read back as %d", len(rec.Entries), len(again.Entries))
		}
		for i, e := range rec.Entries {
			a := again.Entries[i]
			// An empty direction text is written as the end marker's "f".
			if !a.Board.Equal(e.Board) || a.Dir != e.Dir || a.DirText != e.DirText && e.DirText != "" || (a.Spawn == nil) != (e.Spawn == nil) || a.Spawn != nil && *a.Spawn != *e.Spawn {
				t.Fatalf("entry %d read back differently", i+1)
			}
		}
		res := ValidateV1(rec)
		if res.Valid != (res.Problem == nil) || res.Problem != nil && (res.Problem.At < 1 || res.Problem.At > len(rec.Entries)) {
			t.Fatalf("valid %v, problem %v", res.Valid, res.Problem)
		}
	})
}
