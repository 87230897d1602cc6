package engine

import (
	"errors"
	"strings"
	"testing"
)

func TestParseActions(t *testing.T) {
	got, err := ParseActions(" L l\tU\r\nrdZ e K bB")
	if err != nil || FormatActions(got) != "LLURDZEKBB" {
		t.Errorf("ParseActions = %q, %v", FormatActions(got), err)
	}
	for _, tt := range []struct {
		log    string
		offset int
		char   rune
	}{{"LLX", 2, 'X'}, {"L é", 2, 'é'}, {"U,D", 1, ','}, {"UD\x00", 2, 0}} {
		_, err := ParseActions(tt.log)
		var ae *ActionError
		if !errors.As(err, &ae) || ae.Offset != tt.offset || ae.Char != tt.char {
			t.Errorf("ParseActions(%q) = %v, want an error at %d for %q", tt.log, err, tt.offset, tt.char)
		}
	}
	if a, ok := ActionOf('k'); !ok || a != KeepPlaying || a.String() != "keep-playing" {
		t.Errorf("ActionOf('k') = %v, %v", a, ok)
	}
	if a, ok := ActionOf('b'); !ok || a != Break || a.String() != "break" || a.Letter() != 'B' {
		t.Errorf("ActionOf('b') = %v, %v", a, ok)
	}
}

// FuzzParseActions checks the move-log decoder: it accepts exactly the
// logs of action letters and white space, and FormatActions gives back the
// letters.
func FuzzParseActions(f *testing.F) {
	f.Add("LLDRUL")
	f.Add("u d\nZEK")
	f.Add("LbB")
	f.Add("L\xffR")
	f.Fuzz(func(t *testing.T, log string) {
		actions, err := ParseActions(log)
		// Valid: only action letters, in either case, and " \t\n\r".
		valid := strings.Trim(log, "UDLRZEKBudlrzekb \t\n\r") == ""
		clean := strings.ToUpper(strings.NewReplacer(" ", "", "\t", "", "\n", "", "\r", "").Replace(log))
		if err != nil {
			var ae *ActionError
			if !errors.As(err, &ae) || ae.Offset < 0 || ae.Offset >= len(log) {
				t.Fatalf("ParseActions(%q): %v", log, err)
			}
			if valid {
				t.Fatalf("ParseActions(%q) refuses a log of actions and white space: %v", log, err)
			}
			return
		}
		if !valid || FormatActions(actions) != clean {
			t.Fatalf("ParseActions(%q) = %q", log, FormatActions(actions))
		}
	})
}

// TestLogByte holds the move log's byte table to the rule it writes
// out: each action's letter in either case, white space, nothing else.
func TestLogByte(t *testing.T) {
	for c := range 256 {
		want := uint8(0)
		if i := strings.IndexByte(actionLetters, byte(c)&^0x20); i >= 0 && byte(c)|0x20 >= 'a' && byte(c)|0x20 <= 'z' {
			want = uint8(i) + 1
		}
		if strings.IndexByte(" \t\n\r", byte(c)) >= 0 {
			want = skip
		}
		if logByte[c] != want {
			t.Errorf("logByte[%q] = %d, want %d", byte(c), logByte[c], want)
		}
		a, ok := ActionOf(byte(c))
		if ok != (want != 0 && want != skip) || ok && a != Action(want-1) {
			t.Errorf("ActionOf(%q) = %v, %v", byte(c), a, ok)
		}
	}
}
