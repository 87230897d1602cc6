// Package termview draws tileproof games in a terminal and reads the keys
// that drive them: a board as plain text or with coloured tiles in the
// manner of the original 2048 (ANSI 256-colour or 24-bit backgrounds), the
// caption of a replay's frame, the escape sequences that redraw a screen in
// place, a batch's progress line, and a decoder of key presses (arrows,
// Home and End, letters) from any io.Reader. It does no terminal I/O of
// its own: the caller puts the terminal in raw mode and hands it a reader
// and a writer, which keeps everything here testable without a terminal.
package termview
