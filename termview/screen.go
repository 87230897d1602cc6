package termview

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

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

// Fit returns lines cut to a screen of width columns and height rows, as
// Redraw needs them (a line longer than the screen would wrap and push
// the view down): each line cut after width visible characters, escape
// sequences kept and the colours reset after a cut line; and, when the
// lines do not fit in height rows, a message saying how many are needed
// instead.
func Fit(lines []string, width, height int) []string {
	if len(lines) > height {
		return Fit([]string{fmt.Sprintf("the window has %d rows; this view needs %d", height, len(lines)), "make it taller, or q to quit"}, width, max(height, 2))
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = cut(l, width)
	}
	return out
}

// cut returns l with at most width visible characters.
func cut(l string, width int) string {
	visible := 0
	for i := 0; i < len(l); {
		if l[i] == 0x1b {
			if n := escapeLen(l[i:]); n > 0 {
				i += n
				continue
			}
		}
		if visible == width {
			return l[:i] + "\x1b[0m"
		}
		_, n := utf8.DecodeRuneInString(l[i:])
		i += n
		visible++
	}
	return l
}

// escapeLen returns the length of the control sequence that s begins
// with (ESC [, parameters 0-9 ; ?, a letter), or 0.
func escapeLen(s string) int {
	if !strings.HasPrefix(s, "\x1b[") {
		return 0
	}
	for i := 2; i < len(s); i++ {
		switch b := s[i]; {
		case '0' <= b && b <= '9' || b == ';' || b == '?':
		case 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}
