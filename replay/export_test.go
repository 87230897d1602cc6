package replay

// Internals for the external tests (hallabois_test.go).
var (
	CheckClaim = checkClaim
	PlayGame   = playGame
)
