// Package conformance runs tileproof's conformance suite against an
// implementation of a 2048-style game: the case pack under cases/ (see
// docs/case-format.md), property checks that no single case shows, and the
// exhaustive check of every short line. An implementation is reached
// through an [Impl]: the built-in engine, a process speaking the exec
// protocol (docs/protocol.md), or an HTTP server shaped like the
// tile-merge API. [TestImpl] runs the suite from a Go implementation's own
// go test, as testing/fstest.TestFS does for file systems.
//
// Beside the pack, [Explore] plays random games in an implementation,
// compares every step with the engine and shrinks the first divergence
// of each kind to a short case of the pack's format (tileproof conform
// --explore); [Observe] checks an implementation that can only start
// games and move, through its own games (tileproof conform --observe).
package conformance
