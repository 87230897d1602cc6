//go:build wasip1

package main

import "unsafe"

// The module's exports, for js/src/verify.js. Memory passes through one
// input buffer the caller fills (input gives its address for n bytes)
// and the verdict lines of the last call, which out and outLen locate;
// both stay put until the next call. Names are passed at the input
// buffer's start, their length apart.

var (
	k  = newKit()
	in []byte
)

// input returns the address of an input buffer of n bytes.
//
//go:wasmexport input
func input(n int32) unsafe.Pointer {
	if cap(in) < int(n) {
		in = make([]byte, n)
	}
	in = in[:n]
	if n == 0 {
		return nil
	}
	return unsafe.Pointer(&in[0])
}

// args splits the input buffer into a name of nameLen bytes and the data
// after it.
func args(nameLen int32) (string, []byte) {
	return string(in[:nameLen]), in[nameLen:]
}

// verify verifies the replay file in the input buffer, after its name.
//
//go:wasmexport verify
func verify(nameLen int32) { k.verifyFile(args(nameLen)) }

// verifyLines verifies the JSON Lines batch in the input buffer, after its
// name.
//
//go:wasmexport verifyLines
func verifyLines(nameLen int32) { k.verifyLines(args(nameLen)) }

// streamStart begins a stream of JSON Lines named by the input buffer.
//
//go:wasmexport streamStart
func streamStart(nameLen int32) {
	name, _ := args(nameLen)
	k.startStream(name)
}

// streamPush hands the stream the input buffer's bytes.
//
//go:wasmexport streamPush
func streamPush() { k.push(in) }

// streamEnd ends the stream.
//
//go:wasmexport streamEnd
func streamEnd() { k.endStream() }

// setStrict sets whether verdicts are given as the command's --strict
// gives them.
//
//go:wasmexport setStrict
func setStrict(on int32) { k.strict = on != 0 }

// out returns the address of the verdict lines of the last call.
//
//go:wasmexport out
func out() unsafe.Pointer {
	if len(k.out) == 0 {
		return nil
	}
	return unsafe.Pointer(&k.out[0])
}

// outLen returns the length of the verdict lines of the last call.
//
//go:wasmexport outLen
func outLen() int32 { return int32(len(k.out)) }

// warm builds what the verifier builds on first use; the build's snapshot
// calls it.
//
//go:wasmexport warm
func warm() { k.warm() }

// addProfile adds the profile YAML in the input buffer, after its file
// name: 0 when it is added; 1 when not, the error in the output.
//
//go:wasmexport addProfile
func addProfile(nameLen int32) int32 {
	k.out = k.out[:0]
	if err := k.addProfile(args(nameLen)); err != nil {
		k.out = append(k.out, err.Error()...)
		return 1
	}
	return 0
}
