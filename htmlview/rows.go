package htmlview

import (
	"bytes"
	"encoding/json"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/replay"
)

// The report's table travels as one JSON object (in a script element of
// type application/json), its rows an array of arrays, a few bytes a
// field, so that 100,000 submissions weigh under 150 bytes each:
//
//	{"pre": the pages' common folder ("r_files/"),
//	 "rows": [[n, name, class, reason, claimed, score, max tile, moves,
//	           smallest p, page, file, what], ...]}
//
// n is the place in the batch from 1; class 0 valid, 1 suspicious, 2
// invalid, 3 unreadable; a figure never computed is null; page is the
// page's URL after pre and without ".html" ("" none); file the replay's
// URL, 1 when it is the name as it stands, 0 none; what the verdict told
// in a line. When an entry has a band of evidence of computer play
// (Entry.Band), the object has "bands" too (bandOrder) and each row a
// 13th field, the band's number in it (null: not analysed).
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
)

// classes are the four classes by their number in the rows.
var classes = []string{kindValid, kindSuspicious, kindInvalid, kindUnreadable}

func classOf(v replay.Verdict) int {
	switch kindOf(v) {
	case kindSuspicious:
		return 1
	case kindInvalid:
		return 2
	case kindUnreadable:
		return 3
	}
	return 0
}

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

// rowsJSON writes the table's data.
func rowsJSON(entries []Entry) ([]byte, error) {
	pre := pagePrefix(entries)
	var b bytes.Buffer
	b.Grow(len(entries) * 100)
	b.WriteString(`{"pre":`)
	str := func(s string) {
		j, _ := json.Marshal(s) // escapes <, > and &: safe in a script element
		b.Write(j)
	}
	num := func(ok bool, n uint64) {
		if ok {
			b.WriteString(strconv.FormatUint(n, 10))
		} else {
			b.WriteString("null")
		}
	}
	str(pre)
	bands := hasBands(entries)
	if bands {
		b.WriteString(`,"bands":`)
		j, _ := json.Marshal(bandOrder)
		b.Write(j)
	}
	b.WriteString(`,"classes":["valid","suspicious","invalid","unreadable"],"rows":[`)
	for i, e := range entries {
		v := e.Verdict
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(i + 1))
		b.WriteByte(',')
		str(v.Name)
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(classOf(v)))
		b.WriteByte(',')
		reason := string(v.Reason)
		if v.Valid {
			reason = ""
		}
		str(reason)
		b.WriteByte(',')
		var claimed uint64
		if e.Claimed != nil {
			claimed = *e.Claimed
		}
		num(e.Claimed != nil, claimed)
		b.WriteByte(',')
		num(v.Replayed, v.Score)
		b.WriteByte(',')
		num(v.Replayed, v.MaxTile)
		b.WriteByte(',')
		num(v.Replayed, uint64(v.Moves))
		b.WriteByte(',')
		if pl := v.Plausibility; pl != nil {
			p := min(pl.ValueP, pl.RankP, pl.CellP)
			if math.IsNaN(p) || math.IsInf(p, 0) {
				b.WriteString("null")
			} else {
				b.WriteString(strconv.FormatFloat(p, 'g', 2, 64))
			}
		} else {
			b.WriteString("null")
		}
		b.WriteByte(',')
		str(strings.TrimSuffix(strings.TrimPrefix(e.Page, pre), ".html"))
		b.WriteByte(',')
		switch {
		case e.Source == "":
			b.WriteByte('0')
		case e.Source == pathURL(v.Name):
			b.WriteByte('1')
		default:
			str(e.Source)
		}
		b.WriteByte(',')
		str(what(v))
		if bands {
			b.WriteByte(',')
			if i := slices.Index(bandOrder, e.Band); i >= 0 {
				b.WriteString(strconv.Itoa(i))
			} else {
				b.WriteString("null")
			}
		}
		b.WriteByte(']')
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

// hasBands reports whether an entry has a band of evidence of computer
// play: the report then has their column.
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
func pathURL(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
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
		return v.Error
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
