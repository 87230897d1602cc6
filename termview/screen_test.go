package termview

import (
	"regexp"
	"slices"
	"testing"
)

func TestFit(t *testing.T) {
	red, reset := "\x1b[48;5;196m", "\x1b[0m"
	tests := []struct {
		name          string
		lines         []string
		width, height int
		want          []string
	}{
		{"fits", []string{"abc", "de"}, 3, 2, []string{"abc", "de"}},
		{"cut", []string{"abcdef", "ab"}, 4, 5, []string{"abcd" + reset, "ab"}},
		{"escapes do not count", []string{red + "ab" + reset + "cd"}, 4, 1, []string{red + "ab" + reset + "cd"}},
		{"cut inside a colour", []string{red + "abcd" + reset}, 2, 1, []string{red + "ab" + reset}},
		{"runes, not bytes", []string{"·é·é"}, 3, 1, []string{"·é·" + reset}},
		{"too few rows", []string{"a", "b", "c"}, 80, 2, []string{"the window has 2 rows; this view needs 3", "make it taller, or q to quit"}},
		{"too few rows, narrow", []string{"a", "b", "c"}, 10, 2, []string{"the window" + reset, "make it ta" + reset}},
	}
	for _, tt := range tests {
		if got := Fit(tt.lines, tt.width, tt.height); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Fit(%q, %d, %d) = %q, want %q", tt.name, tt.lines, tt.width, tt.height, got, tt.want)
		}
	}
}

// FuzzEscapeLen holds escapeLen to the regular expression it replaces.
func FuzzEscapeLen(f *testing.F) {
	for _, s := range []string{"\x1b[0m", "\x1b[1;38;2;119;110;101mx", "\x1b[?25l", "\x1b[", "\x1b[12", "\x1b]0;t\a", "x\x1b[0m", ""} {
		f.Add(s)
	}
	escapeRE := regexp.MustCompile(`^\x1b\[[0-9;?]*[A-Za-z]`)
	f.Fuzz(func(t *testing.T, s string) {
		want := 0
		if m := escapeRE.FindStringIndex(s); m != nil {
			want = m[1]
		}
		if got := escapeLen(s); got != want {
			t.Errorf("escapeLen(%q) = %d, want %d", s, got, want)
		}
	})
}
