package engine_test

// The engine's tests of a generator registered from outside play the
// hallabois game's (lcg in generator_test.go): this external test
// package links peer/hallabois into the test binary, which registers it.
import _ "github.com/tileproof/tileproof/peer/hallabois"
