// Command wasm is tileproof's verifier for WebAssembly, the module the
// JavaScript kit's verify.js loads (docs/web.md). Built with GOOS=wasip1
// GOARCH=wasm -buildmode=c-shared (npm run build in js/), it exports the
// functions of exports.go; this file holds what they do, the verification
// of `tileproof verify --json` (replay.Verifier, replay.VerifyBatch, the
// JSON Lines reader and verdict line of replay/jsonl), so that it is
// tested as ordinary Go too.
package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/peer/hallabois"
	"github.com/tileproof/tileproof/replay"
	"github.com/tileproof/tileproof/replay/jsonl"
)

// maxReplaySize bounds one replay, a file or a line, as the command
// bounds it.
const maxReplaySize = 64 << 20

// kit is the verifier's state between calls: the verifier, and the
// verdict lines of the last call, which the caller reads before the next.
type kit struct {
	v      *replay.Verifier
	strict bool
	out    []byte
	cur    *stream // the stream being read, if any
}

// newKit returns the kit's state, its verifier knowing every generator
// the command's does (hallabois-lcg, registered by peer/hallabois).
func newKit() *kit {
	hallabois.Generator()
	v := replay.NewVerifier()
	v.HowToAdd = howToAdd
	return &kit{v: v}
}

// howToAdd is how a user of the kit makes a profile known, which the
// refusal of an unknown profile ends with (docs/web.md).
const howToAdd = "verifier.addProfile(yaml)"

// verdict returns vd as the command's --strict gives it, when asked.
func (k *kit) verdict(vd replay.Verdict) replay.Verdict {
	if k.strict {
		return vd.Strict()
	}
	return vd
}

// verifyFile sets k.out to the verdict line of one replay file, named
// name, in YAML or JSON: a file larger than the command reads is
// unreadable, as there.
func (k *kit) verifyFile(name string, data []byte) {
	var vd replay.Verdict
	if len(data) > maxReplaySize {
		vd = jsonl.Unreadable(name, fmt.Errorf("larger than %d MiB", maxReplaySize>>20))
	} else {
		vd = k.v.VerifyFile(name, data)
	}
	k.out = jsonl.AppendVerdict(k.out[:0], k.verdict(vd))
}

// verifyLines sets k.out to the verdict lines of a JSON Lines batch, named
// name (each verdict NAME:LINE), as `verify --json` gives them for a
// .jsonl file or stdin.
func (k *kit) verifyLines(name string, data []byte) {
	k.out = k.out[:0]
	k.stream(name, bytes.NewReader(data))
}

// stream verifies the JSON Lines of r, appending each verdict line to
// k.out as soon as its line is read: the verdicts of
// [replay.VerifyBatch], one a line in order, an unreadable line's as
// [jsonl.Unreadable] gives it, without the goroutines a batch of one
// worker would cost here.
func (k *kit) stream(name string, r io.Reader) {
	jsonl.Read(name, r, maxReplaySize, func(in replay.Input) bool {
		var vd replay.Verdict
		if in.Err != nil {
			vd = jsonl.Unreadable(in.Name, in.Err)
		} else {
			vd = k.v.VerifyFile(in.Name, in.Data)
		}
		k.out = jsonl.AppendVerdict(k.out, k.verdict(vd))
		return true
	}, nil)
}

// addProfile makes the profile of a YAML file, named file, known to the
// verifier, as `verify --profile FILE` does: a replay uses it when its
// profile names the file's name.
func (k *kit) addProfile(file string, data []byte) error {
	p, err := engine.ParseProfile(file, data)
	if err == nil {
		err = k.v.AddProfile(p)
	}
	return err
}
