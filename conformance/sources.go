package conformance

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tileproof/tileproof/internal/strictyaml"
)

// sourceNames are the documents the rules come from, by the names
// docs/sources.md gives them and cases, profiles and docs cite them by.
// This is the one list: checkSource holds a case's source to it, and a
// test holds docs/sources.md's table to it.
var sourceNames = []string{
	"Tile Merge API",
	"PGS 2048 skeleton",
	"Online 2048",
	"Rosetta Code 2048 task",
	"Merge-line tool",
	"Original 2048",
	"hallabois validator",
	"tileproof",
}

// ImportedSource begins the source of a case that tileproof cases
// import-pgs read from a PGS document; the document's file name follows.
const ImportedSource = "PGS document "

// exploredSource begins the source of a case that tileproof conform
// --explore found and shrank; the implementation, seed and game follow.
const exploredSource = "found by tileproof conform --explore against "

// observedSource begins the source of a case that tileproof conform
// --observe found in an implementation's own game and shrank.
const observedSource = "found by tileproof conform --observe against "

// maxCitations bounds the citations of one source a check reads.
const maxCitations = 16

// checkSource reports whether a case's source names where the case comes
// from in a form a reader can follow: one or more citations separated by
// "; " (outside double quotes), each beginning with the name of a known
// source (docs/sources.md) followed by nothing, ",", ":" or " (", as in
// `Online 2048, Finishing conditions 3: "Move limit reached ..."`; or the
// whole source in the form a case found by exploration or observation
// or imported from a PGS document ([ImportedSource]) has. The error says
// what is wrong.
func checkSource(source string) error {
	for _, prefix := range []string{exploredSource, observedSource, ImportedSource} {
		if rest, ok := strings.CutPrefix(source, prefix); ok {
			if strings.TrimSpace(rest) == "" {
				return fmt.Errorf("source %q names nothing after %q", source, prefix)
			}
			return nil
		}
	}
	citations, err := splitCitations(source)
	if err != nil {
		return fmt.Errorf("source %s: %w", strictyaml.Quote(source, 60), err)
	}
	for i, c := range citations {
		if !namesSource(c) {
			which := "it"
			if len(citations) > 1 {
				which = fmt.Sprintf("its citation %d (%s)", i+1, strictyaml.Quote(c, 60))
			}
			return fmt.Errorf("source %s: %s does not begin with the name of a known source (docs/sources.md): %s",
				strictyaml.Quote(source, 60), which, strings.Join(sourceNames, ", "))
		}
	}
	return nil
}

// splitCitations splits a source at each "; " outside double quotes.
func splitCitations(source string) ([]string, error) {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(source); i++ {
		switch {
		case source[i] == '"':
			quoted = !quoted
		case !quoted && source[i] == ';' && strings.HasPrefix(source[i+1:], " "):
			out = append(out, source[start:i])
			start = i + 2
			if len(out) == maxCitations {
				return nil, fmt.Errorf("more than %d citations", maxCitations)
			}
		}
	}
	if quoted {
		return nil, errors.New(`a quotation is not closed (an odd number of ")`)
	}
	out = append(out, source[start:])
	for i, c := range out {
		if strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf("citation %d is empty", i+1)
		}
	}
	return out, nil
}

// namesSource reports whether a citation begins with a known source's
// name, the whole name.
func namesSource(citation string) bool {
	for _, name := range sourceNames {
		rest, ok := strings.CutPrefix(citation, name)
		if ok && (rest == "" || rest[0] == ',' || rest[0] == ':' || strings.HasPrefix(rest, " (")) {
			return true
		}
	}
	return false
}
