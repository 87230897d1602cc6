package replay

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

// MaxHeader bounds a replay's fields other than its move log (and, in
// JSON, its times): the bytes a YAML replay has once the move log is cut
// out (see cutMoves). The YAML library parses no more than that, besides
// an empty line for each line of a move log cut out.
const MaxHeader = 64 << 10

// headerLimits are the limits the YAML library reads a replay's header
// within: far above any replay (a header has some 20 nodes), far below
// what costs memory (each node takes some hundred bytes).
var headerLimits = strictyaml.Limits{Bytes: MaxHeader, Nodes: 1024, Keys: 64}

// Decode reads a replay from YAML or JSON. name names it in errors, which
// are [strictyaml.ErrorList] entries with the line and column at fault.
// Decoding is strict and bounded whatever the input: every field is read
// as one kind of value and no other (a count is a plain decimal number, a
// flag true or false), a key is a field's exact name, given once, and
// memory and time stay within a small multiple of the input's size (see
// docs/security.md).
func Decode(name string, data []byte) (*Replay, error) {
	r := new(Replay)
	if err := decodeInto(name, data, r); err != nil {
		return nil, err
	}
	return r, nil
}

// decodeInto is [Decode] into r, all of whose fields it sets, reusing the
// room of its Actions and Spawns.
func decodeInto(name string, data []byte, r *Replay) error {
	// A byte-order mark, which some Windows editors write, is not part of
	// the document.
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var f form
	n, err := decodeForm(name, data, &f)
	if err != nil {
		return err
	}
	if n > MaxHeader {
		return headerTooLong(name, n)
	}
	f.doc = data
	return f.replay(name, r)
}

// headerTooLong is the error of a replay whose fields other than the move
// log (and a JSON replay's times) take n bytes, more than MaxHeader.
func headerTooLong(name string, n int) error {
	return strictyaml.ErrorList{{File: name, Msg: fmt.Sprintf("the replay's fields other than moves take %d bytes; at most %d", n, MaxHeader)}}
}

// decodeForm reads a document's fields, the fastest way its form allows:
// JSON with a strict JSON reader; YAML with its move log cut out (a long
// scalar the YAML library scans slowly) and the rest read directly when it
// has the plain form recorders write, or by the YAML library, bounded. It
// returns the size of the fields other than the move log (and a JSON
// replay's times, bounded by the file as the move log is), the same bound
// for every form the replay is written in: the caller checks it against
// MaxHeader.
func decodeForm(name string, data []byte, f *form) (header int, err error) {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '{' {
		if readJSONPlain(data, f) {
			f.src = data
			return len(data) - len(f.text[fMoves]) - len(f.text[fTimes]), nil
		}
		*f = form{}
		err := readJSON(name, data, f)
		var se *jsonSyntaxError
		if !errors.As(err, &se) {
			return len(data) - len(f.text[fMoves]) - len(f.text[fTimes]), err
		}
		// Not JSON: perhaps a YAML flow mapping. If it is not YAML either,
		// the JSON error says more.
		*f = form{}
		if readYAML(name, data, f, headerLimits) == nil {
			return len(data) - len(f.text[fMoves]), nil
		}
		*f = form{}
		return 0, se.list
	}
	if n := bytes.Count(data, []byte{'\r'}); n > 0 && n == bytes.Count(data, []byte("\r\n")) {
		// A document whose lines end in CR LF, each CR (as a Windows
		// checkout leaves it), reads as with LF alone: made so, its move
		// log is cut out as the recorders' is, on the same lines and
		// columns.
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	if c, ok := cutMoves(data); ok {
		if readHeader(c.rest, f) {
			if f.present(fMoves) && f.text[fMoves] == "" {
				f.text[fMoves], f.at[fMoves] = c.moves, c.at
				return c.header(), nil
			}
		}
		if c.header() > MaxHeader {
			// Refused whatever the library makes of it (the whole
			// document, larger still, for its size): say what is too
			// large.
			*f = form{}
			return 0, headerTooLong(name, c.header())
		}
		// The cut is right only if the placeholder is what the YAML
		// library read as the top-level moves (it is not, say, when the
		// "moves:" line is inside a quoted string); otherwise the whole
		// document goes to the YAML library, which decides. The log's
		// lines, blanked, are line breaks the library skips at a few
		// nanoseconds each, in no memory: they do not count toward the
		// header's bytes (docs/security.md).
		*f = form{}
		lim := headerLimits
		lim.Bytes += c.blank
		if err := readYAML(name, c.rest, f, lim); err == nil && f.present(fMoves) && f.text[fMoves] == "" && f.at[fMoves].line == c.at.line {
			f.text[fMoves] = c.moves
			return c.header(), nil
		} else if err != nil && len(data) > MaxHeader {
			return 0, err // the whole document would be refused for its size: the cut one's error says more
		}
		*f = form{}
	}
	if err := readYAML(name, data, f, headerLimits); err != nil {
		if looksHallabois(data) { // looked at only once the document is refused
			err = strictyaml.ErrorList{{File: name, Msg: "this looks like a hallabois recording, not a replay: convert it with tileproof import hallabois FILE (docs/peers.md)"}}
		}
		return 0, err
	}
	return len(data) - len(f.text[fMoves]), nil
}

// looksHallabois reports whether data starts as a recording of the
// hallabois game does (docs/peers.md): the second format with "::", the
// first with a board's cells, after its size ("4x4S") if it has one,
// ("0.2.0.0" and on) and then a spawn ("+").
func looksHallabois(data []byte) bool {
	if bytes.HasPrefix(data, []byte("::")) {
		return true
	}
	digits := func(i int) int {
		for i < len(data) && '0' <= data[i] && data[i] <= '9' {
			i++
		}
		return i
	}
	i := digits(0)
	if i > 0 && i < len(data) && data[i] == 'x' {
		j := digits(i + 1)
		if j == i+1 || j == len(data) || data[j] != 'S' {
			return false
		}
		i = digits(j + 1)
	}
	dots := 0
	for i < len(data) && (data[i] == '.' || '0' <= data[i] && data[i] <= '9') {
		if data[i] == '.' {
			dots++
		}
		i++
	}
	return dots >= 3 && i < len(data) && data[i] == '+'
}

// scalarKind is what a syntax says a scalar value is.
type scalarKind uint8

const (
	sString scalarKind = iota // a string: JSON's, YAML's quoted or block scalars, or a plain one YAML reads as a string
	sInt                      // a whole number written plainly: an optional "-", then 0 or 1-9 and more digits
	sBool                     // true or false, exactly
	sNull                     // null
	sOther                    // anything else: another form of number, a YAML True, ...
)

// scalar is one scalar value as a syntax read it.
type scalar struct {
	text  string
	kind  scalarKind
	at    pos
	block bool // a YAML block scalar, whose first line is the one after at
	// yaml11 is a plain YAML scalar that YAML 1.2 reads as a string and
	// YAML 1.1 (PyYAML, Ruby's Psych) as a boolean or a number: yes, on,
	// n, 1:20 (sexagesimal, 80).
	yaml11 bool
}

// classifyNumber returns sInt for a whole number written plainly and
// sOther for any other number.
func classifyNumber(s string) scalarKind {
	d := strings.TrimPrefix(s, "-")
	if d == "" || d[0] == '0' && len(d) > 1 {
		return sOther
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return sOther
		}
	}
	return sInt
}

// describe names a scalar for a message: a string quoted, anything else
// as written, unless it is long or holds more than a name's characters
// (then only its size: a message does not repeat the file).
func (s scalar) describe() string {
	switch {
	case s.kind == sString && strictyaml.Echoable(s.text):
		return "the string " + strictyaml.Echo(s.text)
	case s.kind == sString:
		return fmt.Sprintf("a string of %d bytes", len(s.text))
	case s.kind == sNull:
		return "null"
	case strictyaml.Echoable(s.text):
		return s.text
	}
	return strictyaml.Echo(s.text)
}

// decodeError collects the errors of one document.
type decodeError struct {
	name string
	src  []byte // the document, for places recorded as offsets
	list strictyaml.ErrorList
}

// add lists an error; a nil d lists none (a fast path that only asks
// whether a value is taken).
func (d *decodeError) add(at pos, format string, args ...any) {
	if d == nil {
		return
	}
	at = at.resolve(d.src)
	d.list = append(d.list, &strictyaml.Error{File: d.name, Line: at.line, Col: at.col, Msg: fmt.Sprintf(format, args...)})
}

// setScalar stores a scalar value of field fd, found at s.at, if it is of
// the field's kind, reporting whether it is; errs lists why not.
func (f *form) setScalar(fd field, s scalar, errs *decodeError) bool {
	path := paths[fd.id]
	bad := func(want string) bool {
		errs.add(s.at, "%s: %s where %s goes", path, s.describe(), want)
		return false
	}
	switch fd.kind {
	case kText, kLog, kTimes:
		if s.kind != sString {
			return bad("a string")
		}
		f.text[fd.id] = s.text
	case kSeed:
		if s.kind != sString && s.kind != sInt {
			errs.add(s.at, "%s: %s is not a seed: write it as a string (or a whole number)", path, s.describe())
			return false
		}
		if s.kind == sInt && !safeSeedNumber(s.text) {
			errs.add(s.at, "%s: %s is beyond 2^53-1, where JavaScript reads two numbers as one: write a long seed as a string", path, s.describe())
			return false
		}
		if s.yaml11 {
			errs.add(s.at, "%s: %s is a boolean or a number to a YAML 1.1 reader (PyYAML, yaml.v2), a string here: write the seed as a quoted string", path, s.describe())
			return false
		}
		if s.kind == sInt && s.text == "-0" {
			// JSON.parse, Python and YAML's core schema read -0 as the
			// number 0, whose text is "0": one seed to them, another here.
			errs.add(s.at, "%s: -0 is the number 0 to other readers and the text \"-0\" here: write the seed as a string", path)
			return false
		}
		f.text[fd.id] = s.text
	case kCount:
		n, err := strconv.ParseUint(s.text, 10, 64)
		if s.kind != sInt || err != nil || n > engine.MaxSafeInteger {
			errs.add(s.at, "%s: %s is not a whole number from 0 to 2^53-1 written plainly (no sign, fraction, leading zero or other base)", path, s.describe())
			return false
		}
		f.num[fd.id] = n
	case kFlag:
		if s.kind != sBool {
			return bad("true or false")
		}
		f.flag[fd.id] = s.text == "true"
	case kBoard:
		if s.kind != sString {
			return bad("a board (a text grid, or a list of rows)")
		}
		b, err := engine.ParseBoard(s.text)
		if err != nil {
			at := s.at
			var be *engine.BoardError
			if errors.As(err, &be) && be.Row > 0 && s.block {
				at = pos{line: at.line + be.Row} // the row's own line
			}
			errs.add(at, "%s: %v", path, err)
			return false
		}
		*f.boardOf(fd.id) = b
	default:
		return bad("a mapping")
	}
	return true
}

// setRows stores a board given as rows of cells, each a scalar.
func (f *form) setRows(fd field, at pos, rows [][]scalar, errs *decodeError) {
	values := make([][]uint64, len(rows))
	for r, row := range rows {
		values[r] = make([]uint64, len(row))
		for c, cell := range row {
			if cell.kind == sNull {
				continue
			}
			v, err := strconv.ParseUint(cell.text, 10, 64)
			if cell.kind != sInt || err != nil {
				errs.add(cell.at, "%s: board row %d, column %d: %s is not a tile", paths[fd.id], r+1, c+1, cell.describe())
				return
			}
			values[r][c] = v
		}
	}
	b, err := engine.BoardFromValues(values)
	if err != nil {
		var be *engine.BoardError
		if errors.As(err, &be) && be.Row > 0 && be.Row <= len(rows) && len(rows[be.Row-1]) > 0 {
			at = rows[be.Row-1][max(be.Col-1, 0)%len(rows[be.Row-1])].at
		}
		errs.add(at, "%s: %v", paths[fd.id], err)
		return
	}
	*f.boardOf(fd.id) = b
}

// replay checks what the fields mean together and sets r to the replay,
// reusing the room of its Actions and Spawns.
func (f *form) replay(name string, r *Replay) error {
	errs := &decodeError{name: name, src: f.src}
	fail := func(id fieldID, format string, args ...any) error {
		errs.add(f.at[id], format, args...)
		return errs.list
	}
	// A missing field's place is none (f.at holds none for it): the
	// message names no line.
	switch {
	case !f.present(fProfile):
		return fail(fProfile, "missing the field profile")
	case !f.present(fMoves):
		return fail(fMoves, "missing the field moves")
	case !f.present(fClaim):
		return fail(fClaim, "missing the field claim")
	case !f.present(fSeed) && !f.present(fStart):
		return fail(fSeed, "missing the field seed (or start, for a replay that records its spawns)")
	case f.present(fSeed) && f.present(fStart):
		return fail(fStart, "a replay has a seed or a start board, not both")
	case f.present(fCommitment) && !f.present(fSeed):
		return fail(fCommitment, "a seed commitment needs a seed")
	case f.present(fCommitment) && !hexForm(f.text[fCommitment], "sha256:"):
		return fail(fCommitment, "seedCommitment %s: write it as sha256: and the 64 lower-case hex digits of the seed's SHA-256", strictyaml.Quote(f.text[fCommitment], 80))
	case f.present(fRNG) && f.present(fStart):
		return fail(fRNG, "rng names the generator of a seeded replay's spawns; a replay that records its spawns has none")
	case f.present(fRules) && (f.num[fRules] == 0 || f.num[fRules] > 1<<31-1):
		return fail(fRules, "rules version %d: a rules version is 1 to 2^31-1 (leave rules out for none)", f.num[fRules])
	case f.present(fTimesSeal) && !f.present(fTimes):
		return fail(fTimesSeal, "a times seal needs times")
	case f.present(fTimesSeal) && !hexForm(f.text[fTimesSeal], "hmac-sha256:"):
		return fail(fTimesSeal, "timesSeal %s: write it as hmac-sha256: and 64 lower-case hex digits, as the server gave it", strictyaml.Quote(f.text[fTimesSeal], 80))
	}
	times := r.Times[:0]
	*r = Replay{Profile: f.text[fProfile], Rules: int(f.num[fRules]), RNG: f.text[fRNG],
		SeedCommitment: f.text[fCommitment], Source: f.text[fSource],
		Actions: r.Actions[:0], Spawns: r.Spawns[:0]}
	if f.present(fSetup) {
		r.Setup = &engine.Setup{Target: f.num[fTarget], OpenEnded: f.flag[fOpenEnded]}
	}
	var err error
	if f.present(fSeed) {
		r.Seed = new(f.text[fSeed])
		r.Actions, err = engine.AppendParsedActions(r.Actions, f.text[fMoves])
		r.Spawns = nil
	} else {
		r.Start = new(f.start)
		r.Actions, r.Spawns, err = appendParsedSpawnLog(r.Actions, r.Spawns, f.text[fMoves], f.start.Cols())
	}
	if err != nil {
		if at, ok := logPlace(f.doc, f.at[fMoves], f.text[fMoves], err); ok {
			errs.add(at, "moves: %v", err)
			return errs.list
		}
		return fail(fMoves, "moves: %v", err)
	}
	if f.present(fTimes) {
		if r.Times, err = appendParsedTimes(times, f.text[fTimes], len(r.Actions)); err != nil {
			return fail(fTimes, "times: %v", err)
		}
		r.TimesSeal = f.text[fTimesSeal]
	}
	switch {
	case !f.present(fScore):
		return fail(fClaim, "the claim has no score")
	case !f.present(fMaxTile):
		return fail(fClaim, "the claim has no maxTile")
	case !f.present(fClaimMoves):
		return fail(fClaim, "the claim has no moves (the number of counted moves)")
	case f.num[fClaimMoves] > math.MaxInt: // where int has 32 bits (386, arm): never wrapped
		return fail(fClaimMoves, "claim.moves: %d is past 2^31-1, the most a 32-bit build of tileproof counts", f.num[fClaimMoves])
	}
	c := &r.Claim
	c.Score, c.MaxTile, c.Moves = f.num[fScore], f.num[fMaxTile], int(f.num[fClaimMoves])
	if f.present(fBoard) {
		c.Board = new(f.board)
	}
	if f.present(fWon) {
		c.Won = new(f.flag[fWon])
	}
	if f.present(fOver) {
		c.Over = new(f.flag[fOver])
	}
	if f.present(fResult) {
		var res engine.Result
		if err := res.UnmarshalText([]byte(f.text[fResult])); err != nil {
			return fail(fResult, "claim.result: %s is not one of %s", strictyaml.Echo(f.text[fResult]), resultList())
		}
		c.Result = &res
	}
	return nil
}

// safeSeedNumber reports whether a seed written as a number, t its
// digits and sign, is within ±(2^53-1), where every number has one value
// in JavaScript: 9007199254740992 and 9007199254740993 are one number
// there, so read as numbers they would be one seed for a page and two
// for the verifier.
func safeSeedNumber(t string) bool {
	if len(t) > 0 && (t[0] == '-' || t[0] == '+') {
		t = t[1:]
	}
	n, err := strconv.ParseUint(t, 10, 64)
	return err == nil && n <= engine.MaxSafeInteger
}

// resultList returns the names of the results a claim may state:
// "playing, target-reached, ...".
func resultList() string {
	var names []string
	for r := engine.Result(0); ; r++ {
		if _, err := r.MarshalText(); err != nil {
			return strings.Join(names, ", ")
		}
		names = append(names, r.Name())
	}
}
