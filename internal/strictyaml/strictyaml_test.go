package strictyaml

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// allocated returns the bytes allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// countParsed returns the nodes of the tree at root, root included.
func countParsed(root *yaml.Node) int {
	n := 1
	for _, c := range root.Content {
		n += countParsed(c)
	}
	return n
}

func TestCountNodesBounds(t *testing.T) {
	// Every node a YAML parser makes needs an indicator or a line of its
	// own, so the count is never below the nodes: check it on documents
	// of every kind against the parser's own count.
	for _, doc := range []string{
		"a: 1\nb: [1, 2, {c: 3}]\n",
		"- - - x\n  - y\n- z\n",
		"? complex\n: value\n",
		"[[[[1]]], [2, 3]]",
		"a: &x [1, 2]\nb: *x\n",
		"text: |\n  several\n  lines\n",
		"x",
		"a: 1\n\n \t\n\r\nb:\n\n  - |\n    x\n\n    y\n  -\n\n    z\n",
	} {
		root, err := Parse("d.yaml", []byte(doc), Limits{Bytes: 1 << 20, Nodes: 1 << 20, Keys: 100})
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if got, n := CountNodes([]byte(doc)), countParsed(root); got < n {
			t.Errorf("%q: CountNodes %d, but it parses into %d nodes", doc, got, n)
		}
	}
}

// TestCountNodesBlankLines: blank lines count for nothing, as a replay's
// header with its move log cut out (its lines blanked) needs; every other
// line counts one.
func TestCountNodesBlankLines(t *testing.T) {
	if n := CountNodes([]byte("a: 1\n" + strings.Repeat("  \t\r\n", 5000) + "b: 2\n")); n != 7 {
		t.Errorf("CountNodes with 5000 blank lines: %d, want 7", n)
	}
	if n := CountNodes([]byte(strings.Repeat("x\n", 5000))); n != 5001 {
		t.Errorf("CountNodes of 5000 lines: %d, want 5001", n)
	}
}

func TestCheckRefuses(t *testing.T) {
	lim := Limits{Bytes: 100, Nodes: 20, Keys: 3}
	for _, tc := range []struct{ doc, want string }{
		{strings.Repeat("x", 101), "d.yaml: 101 bytes; this document may have at most 100"},
		{"[" + strings.Repeat("0,", 30) + "0]", "as many as 64 YAML nodes"},
		{"a: 1\nb: \x00\n", "d.yaml:2:4: the control character U+0000"},
		{"a: 1\nb: caf\xe9\n", "d.yaml:2:7: the byte 0xe9 is not valid UTF-8"},
		{"a: 1\nb: \x7f\n", "d.yaml:2:4: the control character U+007F"},
	} {
		_, err := Parse("d.yaml", []byte(tc.doc), lim)
		var list ErrorList
		if !errors.As(err, &list) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an ErrorList with %q", tc.doc, err, tc.want)
		}
	}
	if _, err := Parse("d.yaml", []byte("a: 1\nb:\n  - x\n"), lim); err != nil {
		t.Errorf("a document within the limits: %v", err)
	}
}

// TestRepeatedKeysOnce: 2,000 repeated keys (the YAML library reports one
// error per pair, some two million, with 1.7 GB of memory) give one
// error, at the first repeat, in little memory.
func TestRepeatedKeysOnce(t *testing.T) {
	doc := []byte(strings.Repeat("x: 1\n", 2000))
	var err error
	mem := allocated(func() { _, err = Parse("d.yaml", doc, DefaultLimits) })
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || !strings.Contains(err.Error(), `d.yaml:2:1: the key "x" again (first at line 1)`) {
		t.Fatalf("%v", err)
	}
	if limit := uint64(200 * len(doc)); mem > limit {
		t.Errorf("%d bytes allocated for a %d-byte document (more than %d)", mem, len(doc), limit)
	}
	if err := Decode("d.yaml", doc, &map[string]int{}); err == nil || strings.Count(err.Error(), "\n") > 0 {
		t.Errorf("Decode: %v, want one error", err)
	}
}

// TestManyKeys: a mapping of 60,000 distinct keys (the YAML library
// compares every key with every other: ten seconds) is refused, in time
// and memory linear in it.
func TestManyKeys(t *testing.T) {
	var sb strings.Builder
	for i := range 60000 {
		sb.WriteString("k")
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString(strconv.Itoa(i))
		sb.WriteString(": 1\n")
	}
	doc := []byte(sb.String())
	var err error
	mem := allocated(func() { err = Decode("d.yaml", doc, &map[string]int{}) })
	if err == nil || !strings.Contains(err.Error(), "a mapping of 60000 keys; at most 1000") {
		t.Fatalf("%v", err)
	}
	t.Logf("%d keys, %d bytes: %d bytes allocated", 60000, len(doc), mem)
}

// TestHugeFlowList: a flow list of 3 MB (some 600 MB in the YAML library's
// nodes) is refused before any parsing, allocating almost nothing.
func TestHugeFlowList(t *testing.T) {
	doc := []byte("source: [" + strings.Repeat("0,", 3<<19) + "0]\n")
	var err error
	mem := allocated(func() { err = Decode("d.yaml", doc, &map[string]any{}) })
	if err == nil || !strings.Contains(err.Error(), "YAML nodes") {
		t.Fatalf("%v", err)
	}
	if mem > 1<<20 {
		t.Errorf("%d bytes allocated to refuse a %d-byte document", mem, len(doc))
	}
}

func TestQuote(t *testing.T) {
	long := strings.Repeat("é", 5000)
	q := Quote(long, 40)
	if len(q) > 80 || !strings.Contains(q, "(10000 bytes in all)") {
		t.Errorf("Quote of a long string: %q", q)
	}
	if Quote("short", 40) != `"short"` {
		t.Errorf("Quote(short) = %s", Quote("short", 40))
	}
}

// FuzzParse: whatever the document, Parse returns a node or an ErrorList,
// never panics, and refuses what is over its limits.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1\n", "[1, [2, {x: y}]]", "x: 1\nx: 2\n", "- &a b\n- *a\n", "? [a]\n: b\n", "\x00", "a: \xff"} {
		f.Add(s)
	}
	lim := Limits{Bytes: 4096, Nodes: 200, Keys: 8}
	f.Fuzz(func(t *testing.T, doc string) {
		root, err := Parse("f.yaml", []byte(doc), lim)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is not an ErrorList", err, err)
			}
			return
		}
		if root == nil {
			t.Fatal("no error and no node")
		}
		if len(doc) > lim.Bytes || CountNodes([]byte(doc)) > lim.Nodes {
			t.Fatalf("a document over the limits parsed: %d bytes, %d nodes", len(doc), CountNodes([]byte(doc)))
		}
		if n := countParsed(root); CountNodes([]byte(doc)) < n {
			t.Fatalf("CountNodes %d, but it parses into %d nodes", CountNodes([]byte(doc)), n)
		}
	})
}

// TestParseCharacterPlace: a control character or a byte that is not
// UTF-8 is placed at its line and column, on the first line as on later
// ones, counting characters, not bytes.
func TestParseCharacterPlace(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"a: \x01\n", "d.yaml:1:4: the control character U+0001"},
		{"\x7f", "d.yaml:1:1: the control character U+007F"},
		{"a: é\x02\n", "d.yaml:1:5: the control character U+0002"},
		{"a: 1\nb: \xff\n", "d.yaml:2:4: the byte 0xff is not valid UTF-8"},
		{"\xc3", "d.yaml:1:1: the byte 0xc3 is not valid UTF-8"},
	} {
		_, err := Parse("d.yaml", []byte(tc.doc), DefaultLimits)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.doc, err, tc.want)
		}
	}
}
