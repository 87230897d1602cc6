// Package driver reaches implementations under test from outside the
// process, as [conformance.Impl]s: [Exec] runs an adapter that speaks the
// exec protocol (docs/protocol.md, docs/protocol.schema.json) on its stdin
// and stdout, and [HTTP] drives a server of the tile-merge API shape
// (docs/api.md). Both are [conformance.Pipeliner]s: the property checks'
// games of one move go out without waiting for each answer.
package driver
