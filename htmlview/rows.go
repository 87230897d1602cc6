package htmlview

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/replay"
)

// The report's table travels as one JSON object (in a script element of
// type application/json), its rows an array of arrays, a few bytes a
// field (docs/viewer-html.md gives the weight of a submission):
//
//	{"pre": the pages' common folder ("r_files/"),
//	 "rows": [[n, name, class, reason, claimed, score, max tile, moves,
//	           smallest p, page, file, what], ...]}
//
// n is the place in the batch from 1; class 0 valid, 1 suspicious, 2
// invalid, 3 unreadable; a figure never computed is null; page is the
// page's URL after pre and without ".html" ("" none); file the replay's
// URL, 1 when it is the name as it stands, 0 none; what the verdict told
// in a line (and, when its think times were checked and are not sealed,
// "; think times NOT sealed": times.go; when its game is that of an
// earlier replay of the batch, "; the same game as NAME (#N), the first
// of its K replays in the batch's order (game ID)", and when it is the
// first of K, "; the first of K replays of this game in the batch's
// order (game ID)": sameGames, sameWhat, firstWhat). When an entry has a band of its analysis
// (Entry.Band), the object has "bands" too (bandOrder) and each row a
// 13th field, the band's number in it (null: not analysed); when an
// entry has a median think time as well (Entry.ThinkMs), the object has
// "think": true and each row of a game with one a 14th field, that
// median in whole milliseconds (a row without ends at the band, five
// bytes fewer than a null). The profile each replay was verified under
// travels beside the rows, a number a row, not in them: "profiles", the
// batch's profiles in order, and "prof", for each row in turn 0 (none:
// unreadable) or k, the kth of them (profilesOf): two bytes a row where
// the name would be twelve or more.
const (
	colN = iota
	colName
	colClass
	colReason
	colClaimed
	colScore
	colTile
	colMoves
	colP
	colPage
	colFile
	colWhat
	colBand
	colThink
)

// classes are the four classes by their number in the rows.
var classes = []string{kindValid, kindSuspicious, kindInvalid, kindUnreadable}

// pagePrefix returns the folder the pages share, with its slash ("" when
// they share none).
func pagePrefix(entries []Entry) string {
	pre, set := "", false
	for _, e := range entries {
		if e.Page == "" {
			continue
		}
		dir := e.Page[:strings.LastIndexByte(e.Page, '/')+1]
		if !set {
			pre, set = dir, true
		} else if dir != pre {
			return ""
		}
	}
	return pre
}

// reportTable is the table's data as it travels. Each row is marshalled
// on its own, so that the rows are held as their JSON only.
type reportTable struct {
	Pre      string            `json:"pre"`
	Bands    []string          `json:"bands,omitempty"`
	Think    bool              `json:"think,omitempty"`
	Classes  []string          `json:"classes"`
	Profiles []string          `json:"profiles,omitempty"`
	Prof     []int             `json:"prof,omitempty"`
	Rows     []json.RawMessage `json:"rows"`
}

// profilesOf returns the profiles the entries were verified under, in
// order, with each entry's place among them from 1 (0 for none: an
// unreadable replay, or one whose profile this verifier does not know).
func profilesOf(entries []Entry) (names []string, of []int) {
	for _, e := range entries {
		if p := e.Verdict.Profile; p != "" && !slices.Contains(names, p) {
			names = append(names, p)
		}
	}
	slices.Sort(names)
	of = make([]int, len(entries))
	for i, e := range entries {
		if p := e.Verdict.Profile; p != "" {
			of[i], _ = slices.BinarySearch(names, p)
			of[i]++
		}
	}
	return names, of
}

// rowsJSON writes the table's data. json.Marshal escapes <, > and &: the
// result is safe in a script element.
func rowsJSON(entries []Entry, same sameSet) ([]byte, error) {
	t := reportTable{Pre: pagePrefix(entries), Classes: classes, Rows: make([]json.RawMessage, len(entries))}
	bands := hasBands(entries)
	if bands {
		t.Bands = bandOrder
	}
	t.Think = hasThink(entries)
	t.Profiles, t.Prof = profilesOf(entries)
	if t.Profiles == nil {
		t.Prof = nil // no profile at all: nothing to show
	}
	for i, e := range entries {
		v := e.Verdict
		reason := string(v.Reason)
		if v.Valid {
			reason = ""
		}
		// figure is a figure of the replayed game: null when it was not.
		// An impossible claim's are those its moves make, replayed for
		// the report (Entry.Played).
		score, tile, moves, replayed := v.Score, v.MaxTile, v.Moves, v.Replayed
		if p := e.Played; !replayed && p != nil {
			score, tile, moves, replayed = p.Score, p.MaxTile, p.Moves, true
		}
		figure := func(n uint64) any {
			if !replayed {
				return nil
			}
			return n
		}
		// The file's link: 0 for none, 1 for the name's own URL, which
		// the page's script makes (encodeURIComponent), else the URL. A
		// name that is not UTF-8 reaches the script with U+FFFD for its
		// odd bytes, so its link is written out.
		var file any = e.Source
		switch {
		case e.Source == "":
			file = 0
		case e.Source == pathURL(v.Name) && utf8.ValidString(v.Name):
			file = 1
		}
		w := what(v)
		if e.Played != nil {
			w += "; " + e.Played.what()
		}
		if v.ThinkTimes.State() == replay.TimesNotSealed {
			w += "; " + notSealedWhat
		}
		if s := sameOf(entries, same, i); s != nil { // its name shown as the page shows names
			w += "; " + sameWhat(safetext.Terminal(s.Name), s)
		} else if g := firstOf(entries, same, i); g != nil {
			w += "; " + firstWhat(g)
		}
		row := []any{i + 1, v.Name, slices.Index(classes, kindOf(v)), reason, e.Claimed, figure(score), figure(tile), figure(uint64(moves)),
			smallestP(v.Plausibility), strings.TrimSuffix(strings.TrimPrefix(e.Page, t.Pre), ".html"), file, w}
		if bands {
			var band any
			if i := bandRank(e.Band); i >= 0 {
				band = i
			}
			row = append(row, band)
		}
		if ms := thinkCell(e.ThinkMs); t.Think && ms != nil {
			row = append(row, ms)
		}
		var err error
		if t.Rows[i], err = json.Marshal(row); err != nil {
			return nil, err
		}
	}
	return json.Marshal(t)
}

// smallestP is the smallest p of the plausibility tests, in two
// significant digits; null when they were not run or it is not finite.
func smallestP(pl *replay.Plausibility) any {
	if pl == nil {
		return nil
	}
	p := min(pl.ValueP, pl.RankP, pl.CellP)
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return nil
	}
	return json.Number(strconv.FormatFloat(p, 'g', 2, 64))
}

// hasBands reports whether an entry has a band of an analysis
// (docs/analyze.md): the report then has their column.
func hasBands(entries []Entry) bool {
	for _, e := range entries {
		if e.Band != "" {
			return true
		}
	}
	return false
}

// pathURL writes a relative path as a URL, each part escaped as the
// page's script does (encodeURIComponent), so that a file's link that is
// its name is written once.
//
// Every character a URL gives a meaning to is escaped, ":" among them
// (url.PathEscape keeps it): a file javascript:alert(1).jsonl in the
// report's folder was linked as href="javascript:alert%281%29.jsonl",
// a script run by a click.
func pathURL(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = uriComponent(p)
	}
	return strings.Join(parts, "/")
}

// uriComponent escapes s as JavaScript's encodeURIComponent does: every
// byte of UTF-8 but ASCII letters, digits and -_.!~*'() as %XX.
func uriComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// what tells a verdict in one line: for a valid replay its result, for a
// suspicious one its warnings, for an invalid one where, what the replay
// says and what the rules give, for an unreadable one its error.
func what(v replay.Verdict) string {
	switch kindOf(v) {
	case kindValid:
		s := v.Result.String()
		if v.Won {
			s += ", won"
		}
		return s
	case kindSuspicious:
		return strings.Join(v.Warnings, "; ")
	case kindUnreadable:
		// The error names the file: its controls and format characters
		// shown as in the name's own cell (a right-to-left override
		// would turn the rest of the cell around), its newlines and tabs
		// too, as verify prints it (a file named "x\nok     y.yaml"
		// read "x ok y.yaml" in the cell, the name's own cell x\x0aok).
		return safetext.TerminalNamed(v.Error, v.Name)
	}
	ex := v.Explain()
	var s string
	if d := v.Divergence; d != nil && d.Action > 0 {
		s = "action " + strconv.Itoa(d.Action) + ", after " + strconv.Itoa(d.Move) + " counted moves: "
	}
	if ex.Says == "" && ex.Gives == "" {
		return s + v.Reason.Describe()
	}
	s += "the replay says " + ex.Says + "; the rules give " + ex.Gives
	for _, a := range ex.Also {
		s += "; also " + a
	}
	return s
}

// what says what the moves of an impossible claim make, replayed for the
// report: the figures of a game of the rules (the claim alone is false),
// or where they leave the rules too.
func (p *Played) what() string {
	if p.Broken > 0 {
		return "its moves, replayed, leave the rules too, at action " + strconv.Itoa(p.Broken)
	}
	return "its moves, replayed, keep the rules: score " + strconv.FormatUint(p.Score, 10) + ", tile " + strconv.FormatUint(p.MaxTile, 10) + ", " + strconv.Itoa(p.Moves) + " moves"
}
