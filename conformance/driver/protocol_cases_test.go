package driver

import (
	"os"
	"testing"

	"github.com/tileproof/tileproof/conformance"
)

// TestProtocolCases holds the statements of docs/protocol.md, "What the
// rules answer", that the case pack lacked (testdata/pack, cases ready
// to move into cases/profiles/): the engine answers them as the page
// says (cases lint finds nothing), and so does the reference adapter over
// the exec protocol.
func TestProtocolCases(t *testing.T) {
	pack, err := conformance.LoadPack(os.DirFS("testdata/pack"))
	if err != nil {
		t.Fatal(err)
	}
	if problems := conformance.Lint(pack); len(problems) > 0 {
		t.Fatalf("the engine does not answer as docs/protocol.md says:\n%v", problems)
	}
	impl := adapter(t)
	defer impl.Close()
	rep, err := conformance.Run(pack, impl, conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	for _, f := range failed {
		t.Errorf("%s [%s]: %s: %s", f.Case, f.Profile, f.Status, f.Reason)
	}
	if _, total := rep.Summaries(); total.Passed < 20 || total.Skipped > 0 {
		t.Errorf("%+v", total)
	}
}
