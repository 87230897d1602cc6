package strictyaml

import (
	"bytes"
	"testing"

	"go.yaml.in/yaml/v3"
)

// allNodes counts every node the library makes for data: each document
// node and its tree, the second document's too (Parse decodes it before
// refusing it).
func allNodes(data []byte) (int, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	n := 0
	for range 2 {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return n, n > 0
		}
		n += countParsed(&doc)
	}
	return n, true
}

var constructDocs = []string{
	"0:", "? 0:", "{a, b}", "[a: b]", "[a: b, c: d]", "[? a]", "[:]", "[: , :]", "{?, ?}", "[?, ?]",
	"?\n?\n?", "? \n: ", "a: &x [1, 2]\nb: *x\n", "- - - a", "- a: b", "{a: {b: {c: d}}}",
	"---\na\n...\n---\nb\n", "%YAML 1.2\n---\na: 1\n", "!!map {a: 1}", "!!seq [!!str , !!str ]",
	"a: !!null\nb: !!null\n", "[!!null , !!null ]", "{!!null : !!null }", "a:\r\n  b:\r\n    c: d\r\n",
	"a\rb\rc", "a: 1\u0085b: 2\u0085", "a: 1\u2028b: 2\u2028c: 3", "\ufeffa: 1", "? - a\n  - b\n: c",
	"? |\n  x\n: >\n  y\n", "{\"a\":b,\"c\":d}", "[a,b,c,d,e,f]", "&a a: *a", "- &a\n- *a\n- *a",
	"a: &x\nb: *x\nc: *x\n", "[&a , *a , *a ]", "{&a : *a }", "- !t\n- !t\n", "a:\n\n\n  b", "- \n- \n-",
	"[ [ [ ] ] ]", "{ { } : { } }", "[{}: {}]", "? [] : []", "!!str", "&a !!str", "--- !!map\n? a\n", "a: b\n---\n",
	"a\n---\n", "---\n---\n", "--- a\n--- b\n", "...\n---\n", "- ---\n", "a: |\n x\n---\nb: 1\n",
}

// TestCountNodesConstructs: CountNodes bounds every node the library
// makes, the document nodes and a second document's included (Parse
// decodes it before refusing it), on the constructs that make nodes with
// few indicators: empty keys and values, implicit keys in flow, explicit
// keys, tags and anchors on empty nodes, aliases, document markers,
// CRLF, CR and Unicode line breaks.
func TestCountNodesConstructs(t *testing.T) {
	for _, doc := range constructDocs {
		n, ok := allNodes([]byte(doc))
		if !ok {
			continue
		}
		if c := CountNodes([]byte(doc)); c < n {
			t.Errorf("%q: CountNodes %d, the library makes %d nodes", doc, c, n)
		}
	}
}
