package replay

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTimesRoundTrip: a replay with times and a times seal is written and
// read back, in YAML and JSON, with the times as they were; its canonical
// hash is the game's, the same as without times.
func TestTimesRoundTrip(t *testing.T) {
	r := playGame(t, "tile-merge", "times", 200, false)
	bare := NewVerifier().Verify(r)
	if !bare.Valid {
		t.Fatalf("the game: %+v", bare)
	}
	r.Times = make([]uint32, len(r.Actions))
	for i := range r.Times {
		r.Times[i] = uint32(i*37%5000) + uint32(i%3)*MaxThinkTime/3
	}
	r.Times[0] = MaxThinkTime
	r.TimesSeal = "hmac-sha256:" + strings.Repeat("0a", 32)
	for name, data := range map[string][]byte{"yaml": r.EncodeYAML(60), "json": r.EncodeJSON()} {
		back, err := Decode(name, data)
		if err != nil {
			t.Fatalf("%s:\n%s\n%v", name, data, err)
		}
		if back.TimesLog() != r.TimesLog() || back.TimesSeal != r.TimesSeal {
			t.Errorf("%s: times %.40q seal %q; wrote %.40q %q", name, back.TimesLog(), back.TimesSeal, r.TimesLog(), r.TimesSeal)
		}
		vd := NewVerifier().Verify(back)
		if !vd.Valid || vd.SHA256 != bare.SHA256 {
			t.Errorf("%s: valid %v, sha256 %s; without times %s", name, vd.Valid, vd.SHA256, bare.SHA256)
		}
	}
	// Empty times for an empty log are times, not none.
	empty := *r
	empty.Actions, empty.Times, empty.TimesSeal = nil, []uint32{}, ""
	for name, data := range map[string][]byte{"yaml": empty.EncodeYAML(60), "json": empty.EncodeJSON()} {
		back, err := Decode(name, data)
		if err != nil || back.Times == nil {
			t.Errorf("%s: empty times read as %v, %v\n%s", name, back, err, data)
		}
	}
}

// TestTimesRefused: times of the wrong count, form or size, and a seal
// without times or of the wrong form, are malformed in every syntax,
// at the field's line.
func TestTimesRefused(t *testing.T) {
	head := "profile: tile-merge\nseed: \"7\"\nmoves: LRL\n"
	tail := "claim: {score: 0, maxTile: 4, moves: 3}\n"
	for _, tc := range []struct{ times, want string }{
		{`times: "1 2"`, "2 times for the log's 3 actions"},
		{`times: "1 2 3 4"`, "more times than the log's 3 actions"},
		{`times: "1 02 3"`, `time 2, "02", is not a whole number`},
		{`times: "1 -2 3"`, `time 2, "-2"`},
		{`times: "1 2 3x"`, `time 3, "3x"`},
		{`times: "1 2 4294967296"`, "is beyond 4294967295 ms"},
		{`times: 812`, "times: 812 where a string goes"},
		{`times: [1, 2, 3]`, "times: a list where a single value goes"},
		{`timesSeal: "hmac-sha256:` + strings.Repeat("a", 64) + `"`, "a times seal needs times"},
		{"times: \"1 2 3\"\ntimesSeal: \"hmac-sha256:" + strings.Repeat("A", 64) + `"`, "timesSeal"},
	} {
		doc := head + tc.times + "\n" + tail
		_, err := Decode("g.yaml", []byte(doc))
		at := "g.yaml:" + strconv.Itoa(4+strings.Count(tc.times, "\n")) + ":"
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), at) {
			t.Errorf("YAML %q: %v, want %s and %q", tc.times, err, at, tc.want)
		}
		// The same document in JSON, where it is one.
		if strings.HasPrefix(tc.times, "times: [") || strings.Contains(tc.times, "\n") {
			continue
		}
		key, val, _ := strings.Cut(tc.times, ": ")
		js := `{"profile":"tile-merge","seed":"7","moves":"LRL","` + key + `":` + val + `,"claim":{"score":0,"maxTile":4,"moves":3}}`
		if _, err := Decode("g.json", []byte(js)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("JSON %s: %v, want %q", js, err, tc.want)
		}
	}
}

// TestTimesFastPaths: the JSON plain reader takes times as a string, the
// YAML header reader a quoted one, and each reads what the strict path
// reads; a JSON document's times do not count toward MaxHeader, a YAML
// one's do.
func TestTimesFastPaths(t *testing.T) {
	js := []byte(`{"profile":"x","moves":"LU","times":"812 95","claim":{"score":0,"maxTile":4,"moves":2}}`)
	var fast form
	if !readJSONPlain(js, &fast) || fast.text[fTimes] != "812 95" {
		t.Errorf("readJSONPlain: %q", fast.text[fTimes])
	}
	var hdr form
	if !readHeader([]byte("profile: x\nmoves: \"\"\ntimes: \"812 95\"\n"), &hdr) || hdr.text[fTimes] != "812 95" {
		t.Errorf("readHeader: %q", hdr.text[fTimes])
	}
	n := MaxHeader/4 + 10
	moves := strings.Repeat("LR", n/2)
	times := strings.TrimSpace(strings.Repeat("999 ", n))
	long := `{"profile":"tile-merge","seed":"7","moves":"` + moves + `","times":"` + times + `","claim":{"score":0,"maxTile":4,"moves":` + itoa(n) + `}}`
	r, err := Decode("long.json", []byte(long))
	if err != nil || len(r.Times) != n {
		t.Errorf("JSON times of %d bytes: %v", len(times), err)
	}
	yml := "profile: tile-merge\nseed: \"7\"\nmoves: " + moves + "\ntimes: \"" + times + "\"\nclaim: {score: 0, maxTile: 4, moves: " + itoa(n) + "}\n"
	if _, err := Decode("long.yaml", []byte(yml)); err == nil {
		t.Errorf("YAML times of %d bytes taken; the header holds %d", len(times), MaxHeader)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzParseTimes holds the times' reader to a plain one: the fields
// between white space, each a whole number written plainly within
// MaxThinkTime, as many as the actions.
func FuzzParseTimes(f *testing.F) {
	for _, s := range []string{"", "0", "812 95", " 1\t2\r\n3 ", "01", "-1", "1.5", "4294967295", "4294967296", "99999999999999999999999", "1 2 3 4", "1x", "\u00a01"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = max(0, min(n, 64))
		got, err := appendParsedTimes(nil, s, n)
		var want []uint32
		ok := true
		for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }) {
			v, perr := strconv.ParseUint(tok, 10, 32)
			if perr != nil || tok[0] == '+' || len(tok) > 1 && tok[0] == '0' {
				ok = false
				break
			}
			want = append(want, uint32(v))
		}
		ok = ok && len(want) == n
		if (err == nil) != ok {
			t.Fatalf("%q (%d actions): %v, %v; the plain reader says %v", s, n, got, err, ok)
		}
		if ok && (got == nil || !slices.Equal(got, want)) {
			t.Fatalf("%q: %v, want %v", s, got, want)
		}
	})
}

// TestTimesYAMLBound: as EncodeYAML's doc says, a timed game too long for
// the YAML header's bound (its times count toward MaxHeader there) does
// not read back from YAML, with the bound's error, and does from JSON.
func TestTimesYAMLBound(t *testing.T) {
	r := playGame(t, "tile-merge", "times", 200, false)
	for len(r.Actions) < 15000 { // the same moves again: Decode does not play them
		r.Actions = append(r.Actions, r.Actions...)
	}
	r.Claim = Claim{}
	r.Times = make([]uint32, len(r.Actions))
	for i := range r.Times {
		r.Times[i] = 1000 + uint32(i%9000)
	}
	if _, err := Decode("long.yaml", r.EncodeYAML(60)); err == nil || !strings.Contains(err.Error(), "the replay's fields other than moves take") {
		t.Errorf("%d timed actions in YAML: %v, want the header's bound", len(r.Actions), err)
	}
	back, err := Decode("long.json", r.EncodeJSON())
	if err != nil || len(back.Times) != len(r.Times) {
		t.Errorf("%d timed actions in JSON: %v", len(r.Actions), err)
	}
}
