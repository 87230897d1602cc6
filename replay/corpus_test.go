package replay

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

const corpusDir = "../replays"

// manifestEntry is one replay of the corpus and the verdict it must get.
type manifestEntry struct {
	File    string `yaml:"file"`
	Verdict string `yaml:"verdict"` // valid, invalid or unreadable
	Reason  Reason `yaml:"reason"`
	Action  int    `yaml:"action"`
	Score   uint64 `yaml:"score"`
	MaxTile uint64 `yaml:"maxTile"`
	Moves   int    `yaml:"moves"`
	Note    string `yaml:"note"`
}

func readManifest(t *testing.T) []manifestEntry {
	data, err := os.ReadFile(filepath.Join(corpusDir, "manifest.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var m []manifestEntry
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("manifest.yaml: %v", err)
	}
	return m
}

func corpusFiles(t *testing.T) []string {
	var files []string
	err := filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") && d.Name() != "manifest.yaml" {
			rel, _ := filepath.Rel(corpusDir, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestCorpus verifies every replay of replays/ and checks the verdict the
// manifest gives it; every file must be in the manifest.
func TestCorpus(t *testing.T) {
	manifest := readManifest(t)
	var listed []string
	v := NewVerifier()
	for _, e := range manifest {
		listed = append(listed, e.File)
		t.Run(e.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			vd := v.VerifyFile(e.File, data)
			switch e.Verdict {
			case "valid":
				if !vd.Valid || vd.Score != e.Score || vd.MaxTile != e.MaxTile || vd.Moves != e.Moves {
					t.Errorf("got valid %v (%s %s %+v), score %d max %d moves %d; manifest: valid, %d %d %d",
						vd.Valid, vd.Reason, vd.Error, vd.Divergence, vd.Score, vd.MaxTile, vd.Moves, e.Score, e.MaxTile, e.Moves)
				}
			case "invalid":
				if vd.Valid || vd.Reason != e.Reason || e.Action != 0 && vd.Divergence.Action != e.Action {
					t.Errorf("got valid %v, reason %q, divergence %+v; manifest: invalid, %s at action %d", vd.Valid, vd.Reason, vd.Divergence, e.Reason, e.Action)
				}
			case "unreadable":
				if vd.Reason != e.Reason || vd.Error == "" {
					t.Errorf("got reason %q (%s); manifest: unreadable, %s", vd.Reason, vd.Error, e.Reason)
				}
			default:
				t.Errorf("manifest verdict %q", e.Verdict)
			}
		})
	}
	files := corpusFiles(t)
	slices.Sort(listed)
	if !slices.Equal(files, listed) {
		t.Errorf("replays/ holds %v\nthe manifest lists %v", files, listed)
	}
	// The corpus has what issue 3 asks for: valid games in every profile,
	// games reaching 2048 and 4096, and each kind of tampering.
	want := map[string]bool{"2048": false, "4096": false}
	profiles := map[string]bool{}
	for _, e := range manifest {
		if e.Verdict != "valid" {
			continue
		}
		want["2048"] = want["2048"] || e.MaxTile == 2048
		want["4096"] = want["4096"] || e.MaxTile == 4096
		r, err := Decode(e.File, mustRead(t, filepath.Join(corpusDir, e.File)))
		if err != nil {
			t.Fatal(err)
		}
		profiles[r.Profile] = true
	}
	if !want["2048"] || !want["4096"] || len(profiles) != 5 {
		t.Errorf("the corpus has valid games reaching 2048 %v and 4096 %v, in profiles %v", want["2048"], want["4096"], profiles)
	}
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSchema checks docs/replay.schema.json against the corpus: it accepts
// every replay that decodes, and rejects the one with an unknown field.
func TestSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, "../docs/replay.schema.json")))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("replay.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("replay.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range corpusFiles(t) {
		var v any
		if err := yaml.Unmarshal(mustRead(t, filepath.Join(corpusDir, file)), &v); err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(v) // YAML to the equivalent JSON
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		_, decodeErr := Decode(file, mustRead(t, filepath.Join(corpusDir, file)))
		schemaErr := schema.Validate(inst)
		if (decodeErr == nil) != (schemaErr == nil) {
			t.Errorf("%s: Decode says %v, the schema says %v", file, decodeErr, schemaErr)
		}
	}
	// Times and their seal: taken and refused alike (but for their count,
	// which a schema does not hold to the log's).
	seal := `"timesSeal":"hmac-sha256:` + strings.Repeat("0f", 32) + `"`
	for doc, ok := range map[string]bool{
		`{"profile":"pgs","seed":"7","moves":"LR","times":"812 0",` + seal + `,"claim":{"score":0,"maxTile":4,"moves":2}}`:                                               true,
		`{"profile":"pgs","seed":"7","moves":"LR","times":" 812\n0 ","claim":{"score":0,"maxTile":4,"moves":2}}`:                                                         true,
		`{"profile":"pgs","seed":"7","moves":"LR",` + seal + `,"claim":{"score":0,"maxTile":4,"moves":2}}`:                                                               false,
		`{"profile":"pgs","seed":"7","moves":"LR","times":"812 02","claim":{"score":0,"maxTile":4,"moves":2}}`:                                                           false,
		`{"profile":"pgs","seed":"7","moves":"LR","times":"812 2","timesSeal":"hmac-sha256:` + strings.Repeat("0F", 32) + `","claim":{"score":0,"maxTile":4,"moves":2}}`: false,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		_, decodeErr := Decode("t.json", []byte(doc))
		if schemaErr := schema.Validate(inst); (schemaErr == nil) != ok || (decodeErr == nil) != ok {
			t.Errorf("%s: the schema says %v, Decode %v; want taken %v", doc, schemaErr, decodeErr, ok)
		}
	}
	// A whole-number seed is a seed to both.
	good := `{"profile":"pgs","seed":7,"moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`
	if inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(good)); schema.Validate(inst) != nil {
		t.Errorf("the schema refuses %s", good)
	}
	if _, err := Decode("good.json", []byte(good)); err != nil {
		t.Errorf("Decode refuses %s: %v", good, err)
	}
	for _, bad := range []string{
		`{"profile":"pgs","moves":"L","claim":{"score":0,"maxTile":0,"moves":0}}`,
		`{"profile":"pgs","seed":"1","start":"2 2/. .","moves":"L","claim":{"score":0,"maxTile":0,"moves":0}}`,
		`{"profile":"pgs","seed":"1","moves":"L","claim":{"score":0,"moves":0}}`,
		`{"profile":"pgs","seed":"1","moves":"LX","claim":{"score":0,"maxTile":0,"moves":0}}`,
		`{"profile":"pgs","rng":"tp1","start":"2 2/. .","moves":"L1:2","claim":{"score":4,"maxTile":4,"moves":1}}`,
		`{"profile":"pgs","seed":"7","seedCommitment":"sha256:7902699BE42C8A8E46FBBB4501726517E86B22C56A189F7625A6DA49081B2451","moves":"L","claim":{"score":0,"maxTile":4,"moves":1}}`,
		`{"profile":"pgs","rules":2147483648,"seed":"1","moves":"L","claim":{"score":0,"maxTile":0,"moves":0}}`,
		`{"profile":"pgs","rules":0,"seed":"1","moves":"L","claim":{"score":0,"maxTile":0,"moves":0}}`,
		`{"profile":"pgs","seed":"1","moves":"L","claim":{"score":0,"maxTile":0,"moves":9007199254740992}}`,
	} {
		inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		_, decodeErr := Decode("bad.json", []byte(bad))
		if schema.Validate(inst) == nil || decodeErr == nil {
			t.Errorf("%s: the schema accepts it or Decode does (%v)", bad, decodeErr)
		}
	}
}
