package engine

import (
	"strings"
	"testing"
)

// TestParseProfileKinds: a value of the wrong kind for a field is refused
// at its line and column with the kind the field is written as, never
// with the Go type it is read into (strictyaml's wrongKind).
func TestParseProfileKinds(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"name: x\nwin: 8\n", "p.yaml:2:6: `8` where a mapping goes"},
		{"name: x\nwin: [8]\n", "p.yaml:2:1: a list where a mapping goes"},
		{"name: x\nbreak: 3\n", "p.yaml:2:8: `3` where a mapping goes"},
		{"hello\n", "p.yaml:1:1: `hello` where a mapping goes"},
		{"name: x\nspawn: 2\n", "p.yaml:2:8: `2` where a mapping goes"},
		{"name: x\nspawn: {a: 1}\n", "where a whole number goes"},
		{"name: x\ntargets: 3\n", "p.yaml:2:10: `3` where a list goes"},
		{"name: x\nunstated: x\n", "p.yaml:2:11: `x` where a list goes"},
		{"name: x\nfinishOrder: x\n", "`x` where a list goes"},
		{"name: x\nwin: {tile: x}\n", "p.yaml:2:13: `x` where a whole number goes"},
		{"name: x\nversion: {a: 1}\n", "a mapping where a whole number goes"},
		{"name: [x]\n", "p.yaml:1:1: a list where text goes"},
		{"name: x\nundo: 3\n", "p.yaml:2:7: `3` where true or false goes"},
		{"name: x\nbreak: {limit: x}\n", "`x` where a whole number goes"},
		{"TOKEN=hunter2\n", "p.yaml:1:1: a text where a mapping goes"}, // not repeated
	} {
		_, err := ParseProfile("p.yaml", []byte(c.yaml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
			continue
		}
		for _, goName := range []string{"unmarshal", "engine.", "int", "[]", "map["} {
			if strings.Contains(err.Error(), goName) {
				t.Errorf("%q: %v names %s", c.yaml, err, goName)
			}
		}
	}
}
