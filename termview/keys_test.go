package termview

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/tileproof/tileproof/engine"
)

var decodeCases = []struct {
	name string
	in   string
	want []Key
}{
	{"letters", "wasdq", []Key{'w', 'a', 's', 'd', 'q'}},
	{"arrows", "\x1b[A\x1b[B\x1b[C\x1b[D", []Key{KeyUp, KeyDown, KeyRight, KeyLeft}},
	{"application arrows", "\x1bOA\x1bOB\x1bOC\x1bOD", []Key{KeyUp, KeyDown, KeyRight, KeyLeft}},
	{"modified arrows", "\x1b[1;5A\x1b[1;2D", []Key{KeyUp, KeyLeft}},
	{"home end", "\x1b[H\x1b[F\x1bOH\x1bOF\x1b[1~\x1b[4~\x1b[7~\x1b[8~", []Key{KeyHome, KeyEnd, KeyHome, KeyEnd, KeyHome, KeyEnd, KeyHome, KeyEnd}},
	{"pages", "\x1b[5~\x1b[6~", []Key{KeyPageUp, KeyPageDown}},
	{"unknown sequences", "\x1b[2~\x1b[Z\x1bOx\x1b[99999999999~", []Key{KeyUnknown, KeyUnknown, KeyUnknown, KeyUnknown}},
	{"control keys", "\x03\x04\r\x7f", []Key{KeyCtrlC, KeyCtrlD, KeyEnter, KeyBackspace}},
	{"utf-8", "é→q", []Key{'é', '→', 'q'}},
	{"bad utf-8", "\xff\xc3q", []Key{KeyUnknown, KeyUnknown, 'q'}},
	{"escape then a key", "\x1bq", []Key{KeyEscape, 'q'}},
	{"two escapes", "\x1b\x1b[A", []Key{KeyEscape, KeyUp}},
	{"lone escape at the end", "n\x1b", []Key{'n', KeyEscape}},
	{"cut short at the end", "n\x1b[1;", []Key{'n', KeyUnknown}},
	{"cut short ss3 at the end", "\x1bO", []Key{KeyUnknown}},
	{"sequence broken by a control byte", "\x1b[1\x03n", []Key{KeyUnknown, KeyCtrlC, 'n'}},
	{"sequence broken by escape", "\x1b[1\x1b[B", []Key{KeyUnknown, KeyDown}},
	{"endless sequence", "\x1b[" + string(bytes.Repeat([]byte("1;"), 40)) + "An", append([]Key{KeyUnknown}, append(keysOf(string(bytes.Repeat([]byte("1;"), 40))[maxSequence-2:]), 'A', 'n')...)},
}

// keysOf returns the keys of ASCII text without escapes: its bytes.
func keysOf(s string) []Key {
	var ks []Key
	for _, c := range []byte(s) {
		ks = append(ks, Key(c))
	}
	return ks
}

func TestDecode(t *testing.T) {
	for _, tc := range decodeCases {
		if diff := cmp.Diff(tc.want, Decode([]byte(tc.in))); diff != "" {
			t.Errorf("%s: Decode(%q) (-want +got):\n%s", tc.name, tc.in, diff)
		}
	}
}

// readAll reads every key from d up to the end of the input.
func readAll(t testing.TB, d *Decoder) []Key {
	var ks []Key
	for {
		k, err := d.ReadKey()
		if err == io.EOF {
			return ks
		}
		if err != nil {
			t.Fatalf("ReadKey: %v", err)
		}
		ks = append(ks, k)
		if len(ks) > 1<<20 {
			t.Fatal("endless keys")
		}
	}
}

// TestDecoderSplit reads each case one byte at a time, so every escape
// sequence arrives split: the keys are the same.
func TestDecoderSplit(t *testing.T) {
	for _, tc := range decodeCases {
		got := readAll(t, NewDecoder(iotest.OneByteReader(bytes.NewReader([]byte(tc.in)))))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: one byte a read (-want +got):\n%s", tc.name, diff)
		}
		got = readAll(t, NewDecoder(iotest.DataErrReader(bytes.NewReader([]byte(tc.in)))))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: data with EOF (-want +got):\n%s", tc.name, diff)
		}
	}
}

// chunkReader returns its data in reads of the given sizes, in turn.
type chunkReader struct {
	data  []byte
	sizes []int
	i     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(r.sizes) > 0 {
		n = max(1, r.sizes[r.i%len(r.sizes)])
		r.i++
	}
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

func TestDecoderWaitsForTheRest(t *testing.T) {
	// An arrow split after ESC [: the decoder returns nothing until the
	// rest arrives, then the arrow.
	pr, pw := io.Pipe()
	d := NewDecoder(pr)
	got := make(chan Key)
	go func() {
		k, _ := d.ReadKey()
		got <- k
	}()
	pw.Write([]byte("\x1b["))
	select {
	case k := <-got:
		t.Fatalf("a key (%v) before the sequence was complete", k)
	default:
	}
	pw.Write([]byte("D"))
	if k := <-got; k != KeyLeft {
		t.Errorf("got %v, want left", k)
	}
	pw.Close()
	if _, err := d.ReadKey(); err != io.EOF {
		t.Errorf("after the end: %v, want EOF", err)
	}
}

func TestDecoderError(t *testing.T) {
	// Keys read before an error come first, then the error, again and
	// again.
	boom := errors.New("boom")
	d := NewDecoder(io.MultiReader(bytes.NewReader([]byte("n\x1b[")), iotest.ErrReader(boom)))
	for i, want := range []Key{'n', KeyUnknown} {
		if k, err := d.ReadKey(); k != want || err != nil {
			t.Errorf("key %d: %v, %v; want %v", i, k, err, want)
		}
	}
	for range 2 {
		if _, err := d.ReadKey(); err != boom {
			t.Errorf("error %v, want boom", err)
		}
	}
}

func TestKeyString(t *testing.T) {
	for k, want := range map[Key]string{KeyUp: "up", KeyDown: "down", KeyRight: "right", KeyLeft: "left", KeyHome: "home", KeyPageUp: "page-up", KeyPageDown: "page-down", KeyEscape: "escape", KeyBackspace: "backspace", KeyEnd: "end", KeyCtrlC: "ctrl-c", 'x': "x", KeyEnter: "enter", KeyUnknown: "unknown", Key(-100): "unknown"} {
		if got := k.String(); got != want {
			t.Errorf("Key(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestCommands(t *testing.T) {
	play := map[Key]engine.Action{
		KeyUp: engine.MoveUp, 'w': engine.MoveUp, 'W': engine.MoveUp,
		KeyDown: engine.MoveDown, 's': engine.MoveDown,
		KeyLeft: engine.MoveLeft, 'a': engine.MoveLeft,
		KeyRight: engine.MoveRight, 'd': engine.MoveRight, 'D': engine.MoveRight,
		'u': engine.Undo, 'z': engine.Undo, 'Z': engine.Undo, 'e': engine.EndRun, 'k': engine.KeepPlaying,
	}
	for k, want := range play {
		if got, ok := PlayAction(k); got != want || !ok {
			t.Errorf("PlayAction(%v) = %v, %v; want %v", k, got, ok, want)
		}
	}
	for _, k := range []Key{'q', KeyCtrlC, KeyCtrlD, 'n', KeyHome, KeyUnknown, KeyEscape} {
		if a, ok := PlayAction(k); ok {
			t.Errorf("PlayAction(%v) = %v, want none", k, a)
		}
	}
	for k, want := range map[Key]bool{'q': true, 'Q': true, KeyCtrlC: true, KeyCtrlD: true, 'w': false, KeyEscape: false} {
		if IsQuit(k) != want {
			t.Errorf("IsQuit(%v) = %v, want %v", k, !want, want)
		}
	}
	show := map[Key]Command{
		KeyRight: Next, KeyDown: Next, 'n': Next, ' ': Next, KeyEnter: Next,
		KeyLeft: Prev, KeyUp: Prev, 'p': Prev, KeyBackspace: Prev,
		KeyHome: First, 'g': First, KeyEnd: Last, 'G': Last,
		'q': Quit, KeyCtrlC: Quit,
		'w': None, KeyUnknown: None, KeyPageDown: None,
	}
	for k, want := range show {
		if got := ShowCommand(k); got != want {
			t.Errorf("ShowCommand(%v) = %v, want %v", k, got, want)
		}
	}
}

// FuzzDecoder decodes arbitrary input whole and in reads of arbitrary
// sizes: never a panic, the same keys both ways, every key a character or
// a named key, no more keys than bytes, and the end of the input after
// them.
func FuzzDecoder(f *testing.F) {
	for _, tc := range decodeCases {
		f.Add([]byte(tc.in), []byte{1, 2, 3})
	}
	f.Add([]byte("\x1b[1;5A\x1bOB\xe2\x86"), []byte{2})
	f.Fuzz(func(t *testing.T, in, sizes []byte) {
		whole := Decode(in)
		if len(whole) > len(in) {
			t.Fatalf("%d keys from %d bytes", len(whole), len(in))
		}
		for _, k := range whole {
			if k < KeyUnknown || k >= 0 && !utf8.ValidRune(rune(k)) {
				t.Fatalf("key %d out of range", k)
			}
		}
		var sz []int
		for _, s := range sizes {
			sz = append(sz, int(s))
		}
		chunked := readAll(t, NewDecoder(&chunkReader{data: in, sizes: sz}))
		if !cmp.Equal(whole, chunked) {
			t.Fatalf("input %q in reads of %v:\n whole   %v\n chunked %v", in, sz, whole, chunked)
		}
		// Without ESC or bytes above 0x7f, every byte is a key.
		if bytes.IndexFunc(in, func(r rune) bool { return r == 0x1b || r >= utf8.RuneSelf }) < 0 && len(whole) != len(in) {
			t.Fatalf("%d keys from %d plain bytes", len(whole), len(in))
		}
	})
}
