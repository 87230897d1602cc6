package termview

import (
	"bufio"
	"bytes"
	"io"
	"unicode/utf8"

	"github.com/tileproof/tileproof/engine"
)

// Key is one key press: a character (its rune, 0 or more; control keys are
// their control characters, so Ctrl-C is 3) or one of the named keys,
// which are negative.
type Key rune

// The named keys.
const (
	KeyUp       Key = -1 - iota // ESC [ A, or ESC O A
	KeyDown                     // ESC [ B, or ESC O B
	KeyRight                    // ESC [ C, or ESC O C
	KeyLeft                     // ESC [ D, or ESC O D
	KeyHome                     // ESC [ H, ESC O H, ESC [ 1 ~ or ESC [ 7 ~
	KeyEnd                      // ESC [ F, ESC O F, ESC [ 4 ~ or ESC [ 8 ~
	KeyPageUp                   // ESC [ 5 ~
	KeyPageDown                 // ESC [ 6 ~
	KeyEscape                   // ESC not followed by a sequence (the Esc key, or Alt with a key)
	KeyUnknown                  // an escape sequence not understood, or a byte that is not UTF-8
)

// Control characters among the keys.
const (
	KeyCtrlC     Key = 3
	KeyCtrlD     Key = 4
	KeyEnter     Key = '\r'
	KeyBackspace Key = 127
)

// namedKeys are the named keys' names: KeyUp's first, down to KeyUnknown.
// (Arrays, not maps: a map literal is built at start, TestNoInitWork.)
var namedKeys = [...]string{"up", "down", "right", "left", "home", "end", "page-up", "page-down", "escape", "unknown"}

// String returns the key's name: "up", "home", "ctrl-c", or the character.
func (k Key) String() string {
	switch {
	case k < 0 && int(-1-k) < len(namedKeys):
		return namedKeys[-1-k]
	case k == KeyEnter:
		return "enter"
	case k == KeyBackspace:
		return "backspace"
	case k >= 0 && k < 32:
		return "ctrl-" + string(rune('a'+k-1))
	case k < 0 || !utf8.ValidRune(rune(k)):
		return "unknown"
	}
	return string(rune(k))
}

// maxSequence is the longest escape sequence the decoder reads; a longer
// one is garbage and decodes as KeyUnknown.
const maxSequence = 32

// Decoder reads key presses from a terminal's input: characters (UTF-8)
// and the escape sequences of the arrows, Home, End, Page Up and Page
// Down in both their normal (ESC [) and application (ESC O) forms, with or
// without modifiers. A sequence may arrive split over several reads.
// Anything it does not understand is KeyUnknown, never an error.
type Decoder struct {
	r   *bufio.Reader
	err error // the reader's error, returned from then on
}

// NewDecoder returns a decoder reading r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{r: bufio.NewReader(r)}
}

// ReadKey returns the next key. At the end of the input it returns the
// reader's error (io.EOF), after the keys read before it; an escape
// sequence cut short by the end of the input is KeyUnknown, a lone ESC
// KeyEscape.
func (d *Decoder) ReadKey() (Key, error) {
	if d.err != nil {
		return 0, d.err
	}
	r, size, err := d.r.ReadRune() // a rune cut short by the end is one bad byte
	switch {
	case err != nil:
		d.err = err
		return 0, err
	case r == utf8.RuneError && size == 1:
		return KeyUnknown, nil
	case r == 0x1b:
		return d.escape(), nil
	}
	return Key(r), nil
}

// Decode returns the keys in a whole input, as a Decoder reading it would.
func Decode(p []byte) []Key {
	d := NewDecoder(bytes.NewReader(p))
	var keys []Key
	for k, err := d.ReadKey(); err == nil; k, err = d.ReadKey() {
		keys = append(keys, k)
	}
	return keys
}

// next reads the next byte of an escape sequence; an error (kept for
// ReadKey) ends the sequence.
func (d *Decoder) next() (byte, bool) {
	b, err := d.r.ReadByte()
	if err != nil {
		d.err = err
	}
	return b, err == nil
}

// escape decodes the rest of a key that starts with ESC.
func (d *Decoder) escape() Key {
	b, ok := d.next()
	switch {
	case !ok:
		return KeyEscape
	case b == 'O': // SS3: one letter follows
		if b, ok = d.next(); ok && letterKeys[b] != 0 {
			return letterKeys[b]
		}
		return KeyUnknown
	case b == '[': // CSI: parameters and intermediates, then a final byte
		return d.csi()
	}
	// ESC then something else: the Esc key, or Alt with a key. The next
	// byte is a key of its own.
	d.r.UnreadByte()
	return KeyEscape
}

// csi decodes the rest of ESC [ P... I... F: parameter bytes 0x30-0x3f,
// intermediate bytes 0x20-0x2f, a final byte 0x40-0x7e.
func (d *Decoder) csi() Key {
	var params []byte
	for len(params) < maxSequence-2 {
		c, ok := d.next()
		switch {
		case !ok:
			return KeyUnknown
		case c >= 0x20 && c <= 0x3f:
			params = append(params, c)
		case c < 0x40 || c > 0x7e:
			// Not a sequence after all: what came before is garbage and
			// this byte starts the next key.
			d.r.UnreadByte()
			return KeyUnknown
		default:
			return csiKey(params, c)
		}
	}
	return KeyUnknown
}

// letterKeys are the keys of the ESC O and ESC [ sequences that end in a
// letter, by the letter; tildeKeys those of ESC [ n ~, by n.
var (
	letterKeys = [256]Key{'A': KeyUp, 'B': KeyDown, 'C': KeyRight, 'D': KeyLeft, 'H': KeyHome, 'F': KeyEnd}
	tildeKeys  = [...]Key{1: KeyHome, 7: KeyHome, 4: KeyEnd, 8: KeyEnd, 5: KeyPageUp, 6: KeyPageDown}
)

// csiKey names the key of a CSI sequence with parameters params and final
// byte final.
func csiKey(params []byte, final byte) Key {
	if k := letterKeys[final]; k != 0 {
		return k
	}
	if final != '~' {
		return KeyUnknown
	}
	// The first parameter says which key; a modifier may follow ";".
	n := 0
	for _, c := range params {
		if c < '0' || c > '9' {
			break
		}
		n = min(n*10+int(c-'0'), 1000)
	}
	if n < len(tildeKeys) && tildeKeys[n] != 0 {
		return tildeKeys[n]
	}
	return KeyUnknown
}

// IsQuit reports whether key k leaves a game or a viewer: Q, Ctrl-C or
// Ctrl-D.
func IsQuit(k Key) bool {
	switch k {
	case 'q', 'Q', KeyCtrlC, KeyCtrlD:
		return true
	}
	return false
}

// PlayAction returns the action key k plays in a game: the arrows and W A
// S D move, U and Z undo, E ends the run, K keeps playing after the win.
// Letters work in either case. (The keyboard is not a move log: there U
// is up, here undo.)
func PlayAction(k Key) (a engine.Action, ok bool) {
	switch k {
	case KeyUp, 'w', 'W':
		return engine.MoveUp, true
	case KeyDown, 's', 'S':
		return engine.MoveDown, true
	case KeyLeft, 'a', 'A':
		return engine.MoveLeft, true
	case KeyRight, 'd', 'D':
		return engine.MoveRight, true
	case 'u', 'U', 'z', 'Z':
		return engine.Undo, true
	case 'e', 'E':
		return engine.EndRun, true
	case 'k', 'K':
		return engine.KeepPlaying, true
	}
	return 0, false
}

// Command is what a key press asks a replay viewer to do.
type Command int

// The commands.
const (
	None  Command = iota // the key means nothing here
	Quit                 // leave
	Next                 // the next step
	Prev                 // the step before
	First                // the first step
	Last                 // the last step
)

// ShowCommand returns what key k does in a replay viewer: the right and
// down arrows, N, space and Enter step forward; the left and up arrows, P
// and Backspace step back; Home and g go to the start, End and G to the
// last step; the IsQuit keys quit.
func ShowCommand(k Key) Command {
	if IsQuit(k) {
		return Quit
	}
	switch k {
	case KeyRight, KeyDown, 'n', 'N', ' ', KeyEnter:
		return Next
	case KeyLeft, KeyUp, 'p', 'P', KeyBackspace, 8:
		return Prev
	case KeyHome, 'g':
		return First
	case KeyEnd, 'G':
		return Last
	}
	return None
}
