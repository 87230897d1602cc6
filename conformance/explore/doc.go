// Package explore plays random games in an implementation and compares
// every step with the engine, and shrinks the first divergence of each
// kind to a short case of the pack's format (tileproof conform
// --explore).
package explore
