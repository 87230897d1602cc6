package replay

import (
	"strconv"

	"github.com/tileproof/tileproof/engine"
)

// readJSONPlain reads a JSON replay in the plain form recorders write
// into f without the JSON library (docs/verify.md, "How decoding stays
// fast", has what it saves): one object of the format's fields, each given
// once; strings of printable ASCII without escapes; counts written
// plainly; true and false; boards as text grids or rows of whole numbers
// and nulls; white space between tokens. It returns false for anything
// else (another form of a value, an unknown or repeated name, a value of
// the wrong kind, data after the object), and readJSON then reads the
// document, so that it alone words every error: readJSONPlain never gives
// a result readJSON would not (FuzzReadJSONPlain).
func readJSONPlain(data []byte, f *form) bool {
	p := plainJSON{data: data}
	p.ws()
	if !p.object(replayFields, f) {
		return false
	}
	p.ws()
	return p.i == len(data)
}

type plainJSON struct {
	data []byte
	i    int
}

func (p *plainJSON) ws() {
	for p.i < len(p.data) && isSpace(p.data[p.i]) {
		p.i++
	}
}

// byte reads byte c, after white space.
func (p *plainJSON) byte(c byte) bool {
	p.ws()
	if p.i < len(p.data) && p.data[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *plainJSON) peek() byte {
	p.ws()
	if p.i < len(p.data) {
		return p.data[p.i]
	}
	return 0
}

// str reads a string of printable ASCII without escapes.
func (p *plainJSON) str() (string, bool) {
	if p.peek() != '"' {
		return "", false
	}
	start := p.i + 1
	if j := start + plainPrefix(p.data[start:]); j < len(p.data) && p.data[j] == '"' {
		p.i = j + 1
		return string(p.data[start:j]), true
	}
	return "", false
}

// integer reads a whole number written plainly, with a sign when signed
// is true: its text.
func (p *plainJSON) integer(signed bool) ([]byte, bool) {
	p.ws()
	start := p.i
	if signed && p.i < len(p.data) && p.data[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.data) && '0' <= p.data[p.i] && p.data[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || n > 1 && p.data[digits] == '0' {
		return nil, false
	}
	if p.i < len(p.data) {
		switch p.data[p.i] {
		case '.', 'e', 'E':
			return nil, false // a fraction or an exponent: another form
		}
	}
	return p.data[start:p.i], true
}

// object reads an object of the given fields into f.
func (p *plainJSON) object(fields []field, f *form) bool {
	if !p.byte('{') {
		return false
	}
	if p.byte('}') {
		return true
	}
	for {
		p.ws()
		at := pos{off: p.i + 1}
		key, ok := p.str()
		if !ok {
			return false
		}
		fd, ok := lookup(fields, key)
		if !ok || f.present(fd.id) || !p.byte(':') {
			return false
		}
		f.mark(fd.id, at)
		if !p.value(fd, f) {
			return false
		}
		if p.byte('}') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// value reads the value of field fd into f: the scalars as setScalar
// takes them, a board's rows here.
func (p *plainJSON) value(fd field, f *form) bool {
	switch c := p.peek(); {
	case fd.kind == kObject:
		return p.object(fd.sub, f)
	case fd.kind == kBoard && c == '[':
		return p.rows(fd, f)
	case c == '"':
		s, ok := p.str()
		return ok && f.setScalar(fd, scalar{text: s, kind: sString}, nil)
	case c == 't' || c == 'f':
		for _, lit := range [...]string{"true", "false"} {
			if rest := p.data[p.i:]; len(rest) >= len(lit) && string(rest[:len(lit)]) == lit {
				p.i += len(lit)
				return f.setScalar(fd, scalar{text: lit, kind: sBool}, nil)
			}
		}
		return false
	}
	n, ok := p.integer(true)
	return ok && f.setScalar(fd, scalar{text: string(n), kind: sInt}, nil)
}

// rows reads a board as rows of whole numbers and nulls.
func (p *plainJSON) rows(fd field, f *form) bool {
	if !p.byte('[') {
		return false
	}
	// Room for a row and a cell more than a board has, which
	// BoardFromValues refuses, filled by index: nothing allocated.
	var cells [engine.MaxSide + 1][engine.MaxSide + 1]uint64
	var rows [engine.MaxSide + 1][]uint64
	for r := range rows {
		if !p.byte('[') {
			return false
		}
		n := 0
		for ; n < len(cells[r]); n++ {
			p.ws()
			if rest := p.data[p.i:]; len(rest) >= 4 && string(rest[:4]) == "null" {
				p.i += 4
			} else {
				text, ok := p.integer(false)
				if !ok {
					return false
				}
				v, err := strconv.ParseUint(string(text), 10, 64)
				if err != nil {
					return false
				}
				cells[r][n] = v
			}
			if p.byte(']') {
				break
			}
			if !p.byte(',') {
				return false
			}
		}
		if n == len(cells[r]) {
			return false // more cells than a row has room for, without the end
		}
		rows[r] = cells[r][:n+1]
		if p.byte(']') {
			b, err := engine.BoardFromValues(rows[:r+1])
			*f.boardOf(fd.id) = b
			return err == nil
		}
		if !p.byte(',') {
			return false
		}
	}
	return false
}
