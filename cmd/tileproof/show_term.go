package main

import "fmt"

// showTerminal prints frame step of s.
func (c *cli) showTerminal(s *shown, step int) int {
	f := s.frames[step]
	fmt.Fprintf(c.stdout, "%s: step %d of %d, score %d, %d moves\n%v\n", s.name, step, len(s.frames)-1, f.Score, f.Moves, f.Board)
	return exitOK
}
