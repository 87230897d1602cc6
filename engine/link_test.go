package engine_test

import "github.com/tileproof/tileproof/peer/hallabois"

// The engine's tests of a generator registered from outside play the
// hallabois game's (lcg in generator_test.go): this external test
// package links peer/hallabois into the test binary and registers it.
func init() { hallabois.Generator() }
