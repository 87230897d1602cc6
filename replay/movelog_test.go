package replay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// parseSpawnLogPlain is the spawn log's grammar read the plain way:
// tokens found by the letters, numbers by strconv.
func parseSpawnLogPlain(log string, cols int) ([]engine.Action, []engine.Spawn, error) {
	var actions []engine.Action
	var spawns []engine.Spawn
	i := 0
	for i < len(log) {
		if strings.IndexByte(" \t\r\n", log[i]) >= 0 {
			i++
			continue
		}
		k := strings.IndexByte("UDLRZEKB", strings.ToUpper(log[i : i+1])[0])
		if k < 0 {
			return nil, nil, fmt.Errorf("bad letter at %d", i)
		}
		a := engine.Action(k)
		i++
		var s engine.Spawn
		if _, isMove := a.Direction(); isMove {
			j := i
			for i < len(log) && '0' <= log[i] && log[i] <= '9' {
				i++
			}
			cell, err := strconv.ParseUint(log[j:i], 10, 64)
			if err != nil || i >= len(log) || log[i] != ':' {
				return nil, nil, fmt.Errorf("bad cell at %d", j)
			}
			i++
			j = i
			for i < len(log) && '0' <= log[i] && log[i] <= '9' {
				i++
			}
			value, err := strconv.ParseUint(log[j:i], 10, 64)
			if err != nil || cell >= uint64(cols)*engine.MaxSide {
				return nil, nil, fmt.Errorf("bad value at %d", j)
			}
			s = engine.Spawn{Row: int(cell) / cols, Col: int(cell) % cols, Value: value}
		}
		actions, spawns = append(actions, a), append(spawns, s)
	}
	return actions, spawns, nil
}

// TestParseSpawnLogEveryCell: every cell of every board width, in every
// move, read as the plain reading reads it (the parser finds a cell's row
// by multiplying where the plain reading divides).
func TestParseSpawnLogEveryCell(t *testing.T) {
	for cols := 2; cols <= engine.MaxSide; cols++ {
		var log strings.Builder
		for cell := range cols * engine.MaxSide {
			fmt.Fprintf(&log, "%c%d:%d ", "UDLRudlr"[cell%8], cell, 2<<(cell%3))
		}
		actions, spawns, err := ParseSpawnLog(log.String(), cols)
		pa, ps, perr := parseSpawnLogPlain(log.String(), cols)
		if err != nil || perr != nil || !slices.Equal(actions, pa) || !slices.Equal(spawns, ps) || len(spawns) != cols*engine.MaxSide {
			t.Errorf("%d columns: %v %v %v, the plain reading %v %v %v", cols, actions, spawns, err, pa, ps, perr)
		}
	}
	for c := range 256 {
		a, ok := engine.ActionOf(byte(c))
		k := strings.IndexByte("UDLRZEKB", strings.ToUpper(string(rune(c)))[0])
		if c >= 0x80 {
			k = -1
		}
		if ok != (k >= 0) || ok && a != engine.Action(k) || !ok && a != 0 {
			t.Errorf("ActionOf(%q) = %v, %v", byte(c), a, ok)
		}
	}
}

// FuzzParseSpawnLog: the spawn log parser accepts what the plain reading
// accepts and reads the same actions and spawns; what it reads, written
// back (spaced or as the canonical form writes it), reads the same again.
func FuzzParseSpawnLog(f *testing.F) {
	for _, s := range []string{"L14:2", "L14:2 U3:4\nZ", "R0:2K E B", "L014:02", "L18446744073709551615:2", "L18446744073709551616:2", "L:2", "L2:", "U1:2x", "d7:4 l2:2",
		// The edges of the fast paths: a token at the end, a two-digit
		// cell beyond the board, a two-digit value, no space, a letter
		// after the value.
		"L3:2", "L3:2 ", "L31:2 U32:4 ", "L99:2 ", "L3:22 ", "L13:16 ", "L3:2Z", "L3:2U4:2", "L03:2 ", "L13:2\tR1:4"} {
		f.Add(s, 4)
	}
	f.Fuzz(func(t *testing.T, log string, cols int) {
		cols = 2 + (cols%7+7)%7
		actions, spawns, err := ParseSpawnLog(log, cols)
		pa, ps, perr := parseSpawnLogPlain(log, cols)
		if (err == nil) != (perr == nil) {
			t.Fatalf("%q: error %v, the plain reading %v", log, err, perr)
		}
		if err != nil {
			return
		}
		if !slices.Equal(actions, pa) || !slices.Equal(spawns, ps) {
			t.Fatalf("%q: %v %v, the plain reading %v %v", log, actions, spawns, pa, ps)
		}
		for _, spaced := range []bool{true, false} {
			again, sp, err := ParseSpawnLog(string(appendSpawnLog(nil, actions, spawns, cols, spaced)), cols)
			if err != nil || !slices.Equal(again, actions) || !slices.Equal(sp, spawns) {
				t.Fatalf("%q written back (spaced %v) reads %v %v (%v)", log, spaced, again, sp, err)
			}
		}
	})
}

// TestAppendSpawnLogEveryToken writes every cell of the largest board
// with every value, a tile or not, through appendSpawnLog and checks the
// text against fmt's, spaced and as the canonical form writes it.
func TestAppendSpawnLogEveryToken(t *testing.T) {
	const cols = engine.MaxSide
	values := []uint64{0, 1, 3, 6, 1<<64 - 1}
	for e := 1; e < 64; e++ {
		values = append(values, 1<<e)
	}
	var actions []engine.Action
	var spawns []engine.Spawn
	var plain []string
	for cell := range cols * engine.MaxSide {
		for k, v := range values {
			a := engine.Action((cell + k) % 4)
			actions = append(actions, a)
			spawns = append(spawns, engine.Spawn{Row: cell / cols, Col: cell % cols, Value: v})
			plain = append(plain, fmt.Sprintf("%c%d:%d", a.Letter(), cell, v))
		}
	}
	actions = append(actions, engine.Undo, engine.Break)
	spawns = append(spawns, engine.Spawn{}, engine.Spawn{})
	plain = append(plain, "Z", "B")
	for _, spaced := range []bool{true, false} {
		sep := ""
		if spaced {
			sep = " "
		}
		if got, want := string(appendSpawnLog([]byte("x"), actions, spawns, cols, spaced)), "x"+strings.Join(plain, sep); got != want {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("spaced %v: the log differs from fmt's at byte %d: %q against %q", spaced, i, got[max(0, i-20):min(len(got), i+20)], want[max(0, i-20):min(len(want), i+20)])
				}
			}
			t.Fatalf("spaced %v: %d bytes against fmt's %d", spaced, len(got), len(want))
		}
	}
}
