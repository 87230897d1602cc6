//go:build !unix

package main

// oNonBlock is none here: a file's kind is looked at once it is open.
const oNonBlock = 0
