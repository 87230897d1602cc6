// Package casesource holds what the conformance runner and exploration share
// about the cases exploration finds: the beginnings of their sources,
// which the runner's source check accepts.
package casesource

// ExploredSource begins the source of a case that tileproof conform
// --explore found and shrank; the implementation, seed and game follow.
const ExploredSource = "found by tileproof conform --explore against "

// ObservedSource begins the source of a case that tileproof conform
// --observe found in an implementation's own game and shrank.
const ObservedSource = "found by tileproof conform --observe against "
