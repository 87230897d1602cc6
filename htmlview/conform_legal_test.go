package htmlview

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/engine"
)

// unlisted is the engine behind a driver whose implementation answers
// legal with unsupported-op, as conformance/driver reports it.
type unlisted struct{ *conformance.Builtin }

func (unlisted) Legal() ([]engine.Direction, error) {
	return nil, fmt.Errorf("legal (request 7): %w", conformance.ErrNoLegal)
}

// TestConformanceLegalUncompared: the page of a run whose legal moves
// went uncompared says so under its summary; a run that compared them
// does not.
func TestConformanceLegalUncompared(t *testing.T) {
	pack, err := conformance.DefaultPack()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		impl conformance.Impl
		said bool
	}{{unlisted{&conformance.Builtin{}}, true}, {&conformance.Builtin{}, false}} {
		rep, err := conformance.Run(t.Context(), pack, tc.impl, conformance.Options{Profiles: []string{"classic"}, Run: regexp.MustCompile(`^core/full-board-vertical-pair-playable$`)})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := Conformance(&b, rep); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), `id="legal-uncompared">The legal moves the cases state were not compared`); got != tc.said {
			t.Errorf("%T: the page says the legal moves were not compared: %v, want %v", tc.impl, got, tc.said)
		}
	}
}
