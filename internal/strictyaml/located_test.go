package strictyaml

import (
	"regexp"
	"strconv"
	"testing"
)

// FuzzLocated holds cutLine and unknownField to the regular expressions
// they replace.
func FuzzLocated(f *testing.F) {
	for _, msg := range []string{
		"yaml: line 3: did not find expected key",
		"line 12: field colour not found in type replay.header",
		"yaml: line 7: field a\tb not found in type t",
		"line 1: field x not found in type ",
		"line 1: field x not found in type a b",
		"line 1: field  not found in type t",
		"line 1: field x\vy not found in type t\v",
		"line 2: two\nlines",
		"line 2: ",
		"line : no number",
		"line 99999999999999999999: too long a number",
		"yaml: yaml: line 1: twice",
		"yaml: unmarshal errors",
		"line 3 no colon",
		"line 4:no space",
		"line 5:12: a column from Fail",
		"line 5:12:no space",
		"line 5:: empty column",
		"line 5:99999999999999999999: too long a column",
		"",
	} {
		f.Add(msg)
	}
	linePrefix := regexp.MustCompile(`^(?:yaml: )?line (\d+)(?::(\d+))?: (.*)$`)
	unknownFieldRE := regexp.MustCompile(`^field (\S+) not found in type \S+$`)
	f.Fuzz(func(t *testing.T, msg string) {
		wantLine, wantCol, wantRest, wantOK := 0, 0, "", false
		if m := linePrefix.FindStringSubmatch(msg); m != nil {
			wantLine, _ = strconv.Atoi(m[1])
			if m[2] != "" {
				wantCol, _ = strconv.Atoi(m[2])
			}
			wantRest, wantOK = m[3], true
		}
		line, col, rest, ok := cutLine(msg)
		if line != wantLine || col != wantCol || rest != wantRest || ok != wantOK {
			t.Errorf("cutLine(%q) = %d, %d, %q, %v; want %d, %d, %q, %v", msg, line, col, rest, ok, wantLine, wantCol, wantRest, wantOK)
		}
		if !ok {
			return
		}
		wantName, wantOK := "", false
		if f := unknownFieldRE.FindStringSubmatch(rest); f != nil {
			wantName, wantOK = f[1], true
		}
		if name, ok := unknownField(rest); name != wantName || ok != wantOK {
			t.Errorf("unknownField(%q) = %q, %v; want %q, %v", rest, name, ok, wantName, wantOK)
		}
	})
}
