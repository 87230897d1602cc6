package main

import (
	"bytes"
	"testing"
)

// FuzzStream: a stream fed in chunks gives the verdict lines the whole
// batch gives at once, wherever the chunks are cut, and each push gives
// only the lines its chunk completed.
func FuzzStream(f *testing.F) {
	f.Add([]byte("{\"profile\":\"tile-merge\",\"seed\":\"1\",\"moves\":\"\",\"claim\":{\"score\":0,\"maxTile\":4,\"moves\":0}}\n\n x\r\n{"), uint8(3))
	f.Add([]byte("{}\n{}\n{}"), uint8(1))
	f.Add([]byte(""), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		k := newKit()
		k.verifyLines("s", data)
		want := string(k.out)
		size := int(cut)%16 + 1
		k.startStream("s")
		var got []byte
		for i := 0; i < len(data); i += size {
			chunk := data[i:min(i+size, len(data))]
			k.push(bytes.Clone(chunk))
			if n := bytes.Count(k.out, []byte("\n")); n > bytes.Count(data[:i+len(chunk)], []byte("\n")) {
				t.Fatalf("a push gave %d verdicts for %d line ends so far", n, bytes.Count(data[:i+len(chunk)], []byte("\n")))
			}
			got = append(got, k.out...)
		}
		k.endStream()
		got = append(got, k.out...)
		if string(got) != want {
			t.Errorf("in chunks of %d:\n%s\nat once:\n%s", size, got, want)
		}
	})
}
