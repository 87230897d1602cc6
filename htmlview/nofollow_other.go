//go:build !unix

package htmlview

// oNoFollow is none here: a link is looked for before the open.
const oNoFollow = 0
