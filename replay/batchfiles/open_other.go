//go:build !unix

package batchfiles

// Without O_NOFOLLOW and O_NONBLOCK, a file's kind is looked at before the
// open and after it.
const (
	oNoFollow = 0
	oNonBlock = 0
)
