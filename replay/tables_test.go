package replay

import (
	"reflect"
	"strings"
	"testing"
)

// TestJSONKeys holds the JSON reader's structs to the field tables: their
// fields are the tables' keys, in the tables' order, so that the JSON
// reader reads every field as the other readers do.
func TestJSONKeys(t *testing.T) {
	for _, tc := range []struct {
		v      any
		fields []field
	}{{jsonReplay{}, replayFields}, {jsonSetup{}, setupFields}, {jsonClaim{}, claimFields}} {
		typ := reflect.TypeOf(tc.v)
		if typ.NumField() != len(tc.fields) {
			t.Fatalf("%T has %d fields; the table %d", tc.v, typ.NumField(), len(tc.fields))
		}
		for i, fd := range tc.fields {
			if key := typ.Field(i).Tag.Get("json"); key != fd.key {
				t.Errorf("%T field %d: key %q, the table's %q", tc.v, i, key, fd.key)
			}
		}
	}
}

// TestPaths holds the fields' names in messages, a literal, to the
// field tables: each field's key, a field under an object after the
// object's key and a dot.
func TestPaths(t *testing.T) {
	var want [numFields]string
	for _, f := range replayFields {
		want[f.id] = f.key
		for _, s := range f.sub {
			want[s.id] = f.key + "." + s.key
		}
	}
	if paths != want {
		t.Errorf("paths = %q,\nthe tables give %q", paths, want)
	}
}

// TestLogChars holds the move log's characters, a literal, to their
// description: the actions' letters in either case, digits, ':', ' ' and
// a tab.
func TestLogChars(t *testing.T) {
	for c := range 256 {
		want := strings.IndexByte("UDLRZEKBudlrzekb0123456789: \t", byte(c)) >= 0
		if logChars[c] != want {
			t.Errorf("logChars[%q] = %v, want %v", byte(c), logChars[c], want)
		}
	}
}

// TestReasonsDescribed: every reason a verdict can give has its sentence,
// and the claim's reasons are found by their fields' names.
func TestReasonsDescribed(t *testing.T) {
	for _, r := range []Reason{Malformed, Refused, SeedCommitment, ImpossibleClaim, BadStart, IllegalMove, AfterEnd, BadSpawn, BadAction, Overflow,
		ClaimMoves, ClaimScore, ClaimMaxTile, ClaimBoard, ClaimWon, ClaimOver, ClaimResult, Implausible} {
		if s := r.Describe(); !strings.HasSuffix(s, ".") || len(s) < 20 {
			t.Errorf("%s: %q", r, s)
		}
	}
	for field, want := range map[string]Reason{"moves": ClaimMoves, "score": ClaimScore, "maxTile": ClaimMaxTile, "board": ClaimBoard,
		"won": ClaimWon, "over": ClaimOver, "result": ClaimResult} {
		if got := claimReason(field); got != want {
			t.Errorf("claimReason(%q) = %s, want %s", field, got, want)
		}
	}
}
