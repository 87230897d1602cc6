package conformance

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// TestCaseSchema checks docs/case.schema.json against every case file of
// the pack (all valid), and against files ParseCases refuses.
func TestCaseSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, "../docs/case.schema.json")))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AddResource("case.schema.json", doc)
	schema, err := c.Compile("case.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(data []byte) error {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return err
		}
		j, _ := json.Marshal(v)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			return err
		}
		return schema.Validate(inst)
	}
	n := 0
	fs.WalkDir(os.DirFS("../cases"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") || p == "pack.yaml" {
			return err
		}
		n++
		if err := validate(mustRead(t, "../cases/"+p)); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		return nil
	})
	if n < 20 {
		t.Errorf("checked %d files", n)
	}
	for _, bad := range []string{
		"cases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left, expect: {colour: red}}]\n",
		"cases:\n  - id: a\n    start: {board: \"2 2\\n. .\", seed: \"7\"}\n    steps: [{move: left}]\n",
		"cases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: sideways}]\n",
		"cases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left, action: undo}]\n",
		"cases:\n  - id: a\n    start: {board: \"2 2\\n. .\"}\n    steps: [{move: left, expect: {error: oops}}]\n",
	} {
		_, perr := parseCases("bad.yaml", []byte("source: s\nprofiles: [all]\n"+bad))
		if validate([]byte(bad)) == nil || perr == nil {
			t.Errorf("%q: the schema accepts it or ParseCases does (%v)", bad, perr)
		}
	}
}
