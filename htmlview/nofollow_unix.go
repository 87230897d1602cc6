//go:build unix

package htmlview

import "syscall"

// oNoFollow keeps an open from following a link planted at the file's
// name.
const oNoFollow = syscall.O_NOFOLLOW
