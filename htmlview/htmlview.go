// Package htmlview writes self-contained HTML pages of tileproof's
// results: a replay's viewer ([Replay]), the summary of a batch of
// verified replays ([Report]) and the failures of a conformance run
// ([Conformance]).
//
// Every page is one file with its CSS and script inline and no reference
// to anything outside it (no network, fonts or images), so it can be
// archived as a CI artifact or mailed. A replay's frames are embedded as
// compact JSON (one short string a board) and drawn by a small script, so
// a game of many thousand moves stays a page of a few hundred KB.
// docs/viewer-html.md describes the pages.
package htmlview

import (
	"embed"
	"html/template"
	"math/bits"
	"strings"
	"sync"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
)

//go:embed assets
var assets embed.FS

// pages returns the page templates, parsed at first use: a command that
// writes no page does not pay for them, nor the package's start (it has
// no init work).
func pages() *template.Template {
	pageTemplates.once.Do(func() {
		pageTemplates.parsed = template.Must(template.New("").Funcs(template.FuncMap{
			"script":  func(name string) template.JS { return template.JS(compactScript(asset(name))) },
			"css":     func(name string) template.CSS { return template.CSS(asset(name)) },
			"tile":    tileClass,
			"placed":  placed,
			"percent": percent,
			// shown writes a name from outside (a file's, a seed) with
			// its controls and format characters visible (\u202e), as
			// a terminal shows it: a right-to-left override cannot make
			// one name read as another.
			"shown": safetext.Terminal,
		}).ParseFS(assets, "assets/*.html"))
	})
	return pageTemplates.parsed
}

var pageTemplates struct {
	once   sync.Once
	parsed *template.Template
}

func asset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic(err) // embedded: cannot happen
	}
	return string(b)
}

// compactScript returns a page's script without its indentation, blank
// lines and lines that are only a comment: the comments are for the
// source, and a page of a long game is mostly its steps. The scripts have
// no string or template literal that spans lines, so no line of one is
// taken for a comment.
func compactScript(js string) string {
	var b strings.Builder
	b.Grow(len(js))
	for line := range strings.Lines(js) {
		line = strings.TrimLeft(line, " \t")
		if line == "\n" || line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// expDigits writes a tile exponent as one character: 0 (empty) to 52.
const expDigits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// boardCode writes a board row-major, a character a cell, the tile's
// exponent in expDigits.
func boardCode(b engine.Board) string {
	var sb strings.Builder
	sb.Grow(b.Cells())
	for r := range b.Rows() {
		for c := range b.Cols() {
			sb.WriteByte(expDigits[b.Exp(r, c)])
		}
	}
	return sb.String()
}

// tileClass is the CSS class of a tile of value v.
func tileClass(v uint64) string {
	if v == 0 {
		return "t0"
	}
	e := bits.TrailingZeros64(v)
	if e > 12 {
		e = 13 // 8192 and up share one colour
	}
	return "t" + string(expDigits[e])
}

// cell is one cell of a board drawn by the templates (the conformance
// page; the replay viewer draws its boards in the script).
type cell struct {
	Value uint64
	Mark  bool // differs from the board it is compared with
}

// boardCells returns the rows of b, each cell marked where other (when
// not nil and of the same size) differs.
func boardCells(b engine.Board, other *engine.Board) [][]cell {
	rows := make([][]cell, b.Rows())
	for r := range rows {
		rows[r] = make([]cell, b.Cols())
		for c := range rows[r] {
			rows[r][c].Value = b.At(r, c)
			if other != nil && other.Rows() == b.Rows() && other.Cols() == b.Cols() {
				rows[r][c].Mark = other.At(r, c) != b.At(r, c)
			}
		}
	}
	return rows
}
