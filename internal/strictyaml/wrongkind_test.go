package strictyaml

import (
	"strings"
	"testing"
)

// TestWrongKind: a value of the wrong kind is refused with the kind its
// field is written as, found through pointers, lists, maps and fields,
// never with the Go type it is read into; a value that is not echoable
// is not repeated.
func TestWrongKind(t *testing.T) {
	type step struct {
		Move  string  `yaml:"move"`
		Score float64 `yaml:"score"`
	}
	type doc struct {
		Steps []*step             `yaml:"steps"`
		Spawn map[uint64]uint64   `yaml:"spawn"`
		Undo  bool                `yaml:"undo"`
		Named map[string][]string `yaml:"named"`
	}
	for _, c := range []struct{ yaml, want string }{
		{"steps: 3\n", "f.yaml:1:8: `3` where a list goes"},
		{"steps: [4]\n", "f.yaml:1:9: `4` where a mapping goes"},
		{"steps: [{move: [l]}]\n", "f.yaml:1:1: a list where text goes"},
		{"steps: [{score: x}]\n", "f.yaml:1:17: `x` where a number goes"},
		{"spawn: {2: x}\n", "f.yaml:1:12: `x` where a whole number goes"},
		{"undo: {a: 1}\n", "f.yaml:1:1: a mapping where true or false goes"},
		{"named: {a: b}\n", "f.yaml:1:12: `b` where a list goes"},
		{"TOKEN=hunter2\n", "f.yaml:1:1: a text where a mapping goes"},
	} {
		var d doc
		err := Decode("f.yaml", []byte(c.yaml), &d)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.yaml, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "strictyaml.") {
			t.Errorf("%q: %v names a Go type", c.yaml, err)
		}
	}
}
