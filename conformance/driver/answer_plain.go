package driver

// readPlain decodes an answer line written in the plain form adapters
// write into w, without the JSON library, whose general decoding costs a
// property check over exec more than the rest of its work
// (docs/protocol.md, "Costs"). The plain form: one object of the
// answer's keys, each given once; strings of printable ASCII without
// escapes; integers written as plain digits (at most 19, no leading
// zero); true, false; null for id and spawn; lists of such strings and
// of lists of such integers, within the lengths the decoder allows;
// white space between tokens.
//
// It returns false for anything else (another spelling of a value, an
// unknown or repeated key, a list past its length, a value of the wrong
// kind, data after the object), and the strict decoder then reads the
// line, so that it alone words every error. What it accepts it decodes
// into w exactly as the strict decoder does (FuzzReadPlain), and the
// same checker then checks it.
func readPlain(line []byte, w *answerLine) bool {
	p := plainReader{b: line}
	p.ws()
	if !p.object(func(k string) bool { return p.answerKey(k, w) }) {
		return false
	}
	p.ws()
	return p.i == len(p.b)
}

// plainReader reads the plain form from b at i.
type plainReader struct {
	b []byte
	i int
}

func (p *plainReader) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\t' || p.b[p.i] == '\n' || p.b[p.i] == '\r') {
		p.i++
	}
}

// byte reads c, after white space.
func (p *plainReader) byte(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// peek returns the next byte after white space, 0 at the end.
func (p *plainReader) peek() byte {
	p.ws()
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

// word reads a literal: true, false or null.
func (p *plainReader) word(w string) bool {
	p.ws()
	if len(p.b)-p.i >= len(w) && string(p.b[p.i:p.i+len(w)]) == w {
		p.i += len(w)
		return true
	}
	return false
}

// object reads an object, each key's value by member, which returns
// false for a key it does not take.
func (p *plainReader) object(member func(key string) bool) bool {
	if !p.byte('{') {
		return false
	}
	if p.byte('}') {
		return true
	}
	for {
		k, ok := p.str()
		if !ok || !p.byte(':') || !member(k) {
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

// str reads a string of printable ASCII without escapes.
func (p *plainReader) str() (string, bool) {
	if !p.byte('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			s := string(p.b[start:p.i])
			p.i++
			return s, true
		case c < ' ' || c > '~' || c == '\\':
			return "", false
		}
		p.i++
	}
	return "", false
}

// integer reads plain digits: 0, or at most 19 without a leading zero
// (which always fit 64 bits).
func (p *plainReader) integer() (integer, bool) {
	p.ws()
	start := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	digits := p.b[start:p.i]
	if len(digits) == 0 || len(digits) > 19 || len(digits) > 1 && digits[0] == '0' {
		return integer{}, false
	}
	if p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return integer{}, false
	}
	var v uint64
	for _, c := range digits {
		v = v*10 + uint64(c-'0')
	}
	return integer{v: v, ok: true}, true
}

func (p *plainReader) boolean() (bool, bool) {
	switch {
	case p.word("true"):
		return true, true
	case p.word("false"):
		return false, true
	}
	return false, false
}

// list reads a list of at most most items, each by item.
func (p *plainReader) list(most int, item func() bool) bool {
	if !p.byte('[') {
		return false
	}
	if p.byte(']') {
		return true
	}
	for n := 1; ; n++ {
		if n > most || !item() {
			return false
		}
		if p.byte(']') {
			return true
		}
		if !p.byte(',') {
			return false
		}
	}
}

// strings reads a list of strings into l.
func (p *plainReader) strings(l *[]string, most int) bool {
	return p.list(most, func() bool {
		s, ok := p.str()
		*l = append(*l, s)
		return ok
	})
}

// set marks a key given; false when it was given already.
func set[T any](g *given[T]) bool {
	if g.Set {
		return false
	}
	g.Set = true
	return true
}

func (p *plainReader) integerKey(g *given[integer]) bool {
	var ok bool
	g.V, ok = p.integer()
	return set(g) && ok
}

func (p *plainReader) boolKey(g *given[bool]) bool {
	var ok bool
	g.V, ok = p.boolean()
	return set(g) && ok
}

func (p *plainReader) stringKey(g *given[string]) bool {
	var ok bool
	g.V, ok = p.str()
	return set(g) && ok
}

// answerKey reads the value of the answer's key k into w.
func (p *plainReader) answerKey(k string, w *answerLine) bool {
	switch k {
	case "id":
		if p.peek() == 'n' {
			w.ID.Null = true
			return set(&w.ID) && p.word("null")
		}
		return p.integerKey(&w.ID)
	case "ok":
		return p.boolKey(&w.OK)
	case "error":
		return p.stringKey(&w.Error)
	case "message":
		return p.stringKey(&w.Message)
	case "protocol":
		return p.integerKey(&w.Protocol)
	case "name":
		return p.stringKey(&w.Name)
	case "version":
		return p.stringKey(&w.Version)
	case "profiles":
		return set(&w.Profiles) && p.strings((*[]string)(&w.Profiles.V), many{}.most())
	case "features":
		return set(&w.Features) && p.strings((*[]string)(&w.Features.V), many{}.most())
	case "changed":
		return p.boolKey(&w.Changed)
	case "gained":
		return p.integerKey(&w.Gained)
	case "spawn":
		if !set(&w.Spawn) {
			return false
		}
		if p.peek() == 'n' {
			w.Spawn.Null = true
			return p.word("null")
		}
		s := &w.Spawn.V
		return p.object(func(k string) bool {
			switch k {
			case "row":
				return p.integerKey(&s.Row)
			case "col":
				return p.integerKey(&s.Col)
			case "value":
				return p.integerKey(&s.Value)
			}
			return false
		})
	case "legal":
		return set(&w.Legal) && p.strings((*[]string)(&w.Legal.V), four{}.most())
	case "state":
		return set(&w.State) && p.state(&w.State.V)
	}
	return false
}

// state reads a state's object into s.
func (p *plainReader) state(s *stateLine) bool {
	return p.object(func(k string) bool {
		switch k {
		case "board":
			if !set(&s.Board) {
				return false
			}
			rows := (*[]upTo[integer, eight])(&s.Board.V)
			// Each list made at its full length at its first item (an
			// empty list stays nil, as the strict decoder leaves it).
			return p.list(eight{}.most(), func() bool {
				var row upTo[integer, eight]
				ok := p.list(eight{}.most(), func() bool {
					n, ok := p.integer()
					if row == nil {
						row = make(upTo[integer, eight], 0, 8)
					}
					row = append(row, n)
					return ok
				})
				if *rows == nil {
					*rows = make([]upTo[integer, eight], 0, 8)
				}
				*rows = append(*rows, row)
				return ok
			})
		case "score":
			return p.integerKey(&s.Score)
		case "moves":
			return p.integerKey(&s.Moves)
		case "won":
			return p.boolKey(&s.Won)
		case "over":
			return p.boolKey(&s.Over)
		case "result":
			return p.stringKey(&s.Result)
		}
		return false
	})
}
