package termview

import "strings"

// Escape sequences that set up and leave a full-screen view.
const (
	EnterScreen = "\x1b[?1049h\x1b[?25l" // the alternate screen, the cursor hidden
	LeaveScreen = "\x1b[?25h\x1b[?1049l" // back to the normal screen, the cursor shown
)

// Redraw returns what redraws a screen in place with lines, for a terminal
// in raw mode: the cursor to the top left, each line written over the old
// one and the rest of it cleared, then everything below cleared. Lines end
// with CR LF, since raw mode does not turn LF into a new line.
func Redraw(lines []string) string {
	var sb strings.Builder
	sb.WriteString("\x1b[H")
	for _, l := range lines {
		sb.WriteString(l)
		sb.WriteString("\x1b[K\r\n")
	}
	sb.WriteString("\x1b[J")
	return sb.String()
}

// Indent returns lines with prefix before each.
func Indent(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = prefix + l
	}
	return out
}
