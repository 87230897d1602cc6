package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tileproof/tileproof/engine"
)

// The tests drive the adapter in process through its request handler, and
// as a process (the test binary re-run as the adapter, see TestMain) for
// the protocol's line handling, the exit status and the test hooks.

func TestMain(m *testing.M) {
	if os.Getenv("TILEPROOF_ADAPTER_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

const helloReq = `{"id":1,"op":"hello","protocol":1}`

// newAdapter returns an in-process adapter as run would make it.
func newAdapter(mutant string) *adapter {
	return &adapter{mutant: mutant, profiles: slices.Clone(profileOrder), features: allFeatures()}
}

// session is an in-process adapter that has had its hello.
type session struct {
	t *testing.T
	a *adapter
}

func newSession(t *testing.T, mutant string) *session {
	t.Helper()
	s := &session{t, newAdapter(mutant)}
	if r := s.do(helloReq); r["ok"] != true {
		t.Fatalf("hello: %v", r)
	}
	return s
}

// raw answers one request line.
func (s *session) raw(req string) string {
	s.t.Helper()
	out, err := s.a.handle([]byte(req))
	if err != nil {
		s.t.Fatalf("%s: %v", req, err)
	}
	return string(out)
}

// do answers one request and decodes the response.
func (s *session) do(req string) map[string]any {
	s.t.Helper()
	out := s.raw(req)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		s.t.Fatalf("%s: response %q is not JSON: %v", req, out, err)
	}
	return m
}

// ok answers a request that must succeed.
func (s *session) ok(req string) map[string]any {
	s.t.Helper()
	m := s.do(req)
	if m["ok"] != true {
		s.t.Fatalf("%s: %v", req, m)
	}
	return m
}

func boardOf(t *testing.T, m map[string]any) [][]int64 {
	t.Helper()
	st, ok := m["state"].(map[string]any)
	if !ok {
		t.Fatalf("no state in %v", m)
	}
	b, err := json.Marshal(st["board"])
	if err != nil {
		t.Fatal(err)
	}
	var out [][]int64
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// load returns a load request for a board given as rows separated by "/".
func load(profile, rows string, extra ...string) string {
	var b [][]int64
	for _, row := range strings.Split(rows, "/") {
		var r []int64
		for _, f := range strings.Fields(row) {
			var v int64
			if f != "." {
				fmt.Sscan(f, &v)
			}
			r = append(r, v)
		}
		b = append(b, r)
	}
	data, _ := json.Marshal(b)
	// Each field once (a key twice is no request): an extra field takes
	// the place of its default.
	fields := []string{`"score":0`, `"moves":0`, `"won":false`, `"keepPlaying":false`}
	for _, e := range extra {
		key, _, _ := strings.Cut(e, ":")
		if i := slices.IndexFunc(fields, func(f string) bool { return strings.HasPrefix(f, key+":") }); i >= 0 {
			fields[i] = e
		} else {
			fields = append(fields, e)
		}
	}
	return fmt.Sprintf(`{"id":2,"op":"load","profile":%q,"rows":%d,"cols":%d,"board":%s,%s}`,
		profile, len(b), len(b[0]), data, strings.Join(fields, ","))
}

func newReq(profile, seed string) string {
	return fmt.Sprintf(`{"id":2,"op":"new","profile":%q,"seed":%q}`, profile, seed)
}

func moveReq(d string) string { return fmt.Sprintf(`{"id":3,"op":"move","direction":%q}`, d) }

func moveSpawn(d string, row, col, value int) string {
	return fmt.Sprintf(`{"id":3,"op":"move","direction":%q,"spawn":{"row":%d,"col":%d,"value":%d}}`, d, row, col, value)
}

const (
	legalReq = `{"id":4,"op":"legal"}`
	undoReq  = `{"id":5,"op":"undo"}`
	endReq   = `{"id":6,"op":"end-run"}`
	keepReq  = `{"id":7,"op":"keep-playing"}`
)

func TestHello(t *testing.T) {
	a := newAdapter("")
	// The answer's shape is lineproto's (its TestAnswers); here, what
	// the adapter declares.
	out, _ := a.handle([]byte(helloReq))
	var h struct {
		ID                 int64
		OK                 bool
		Name, Version      string
		Profiles, Features []string
	}
	if err := json.Unmarshal(out, &h); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if h.ID != 1 || !h.OK || h.Name != "tileproof-reference-adapter" || h.Version == "" {
		t.Errorf("hello: %s", out)
	}
	if want := []string{"classic", "tile-merge", "pgs", "online-2048", "rosetta"}; !slices.Equal(h.Profiles, want) {
		t.Errorf("profiles %v, want %v", h.Profiles, want)
	}
	for _, f := range []string{"load-state", "force-spawn", "seed-tp1", "undo", "end-run", "keep-playing", "setup", "size:2x2", "size:4x4", "size:8x8", "size:3x7"} {
		if !slices.Contains(h.Features, f) {
			t.Errorf("features lack %s: %v", f, h.Features)
		}
	}
	if len(h.Features) != 7+49 {
		t.Errorf("%d features, want 56", len(h.Features))
	}
	// A second hello, and any op before hello, are refused.
	if r := (&session{t, a}).do(helloReq); r["ok"] != false {
		t.Errorf("second hello: %v", r)
	}
	b := &session{t, newAdapter("")}
	if r := b.do(newReq("classic", "7")); r["error"] != "no-hello" {
		t.Errorf("new before hello: %v", r)
	}
}

func TestTP1Vectors(t *testing.T) {
	for _, tc := range []struct {
		seed            string
		key, d1, d2, d3 uint64
	}{
		{"7", 0x7902699be42c8a8e, 0xd453dfeae1476663, 0xdbd0a02725e205ee, 0xd5da13cdbfb0ff31},
		{"  7  ", 0x7902699be42c8a8e, 0xd453dfeae1476663, 0xdbd0a02725e205ee, 0xd5da13cdbfb0ff31},
		{"0", 0x5feceb66ffc86f38, 0x382c6b40f7954d1f, 0xc1092206809911a2, 0xf31b4330c5f03705},
		{"2048-practice", 0x9978de802fbf5898, 0x14e954d1edfc9235, 0xcfce026fcb80a45f, 0xb2c2e5c27a1db6c9},
		{"héllo wörld ✓", 0xc2a59c71097b678d, 0xd11b2c1fd506fba0, 0xdfd0e577751d0a1f, 0x77a15aedf60be97e},
		{"\u00a0日本語\u3000", 0x77710aedc74ecfa3, 0xa16b051b3bce5893, 0x2babf6d97e858de2, 0xfc0228cbceee5b25},
	} {
		key, err := seedKey(tc.seed, "")
		if err != nil || key != tc.key {
			t.Errorf("seedKey(%q) = %x, %v; want %x", tc.seed, key, err, tc.key)
			continue
		}
		r := splitmix{key}
		if d1, d2, d3 := r.next(), r.next(), r.next(); d1 != tc.d1 || d2 != tc.d2 || d3 != tc.d3 {
			t.Errorf("%q draws %x %x %x", tc.seed, d1, d2, d3)
		}
	}
	r := splitmix{0}
	if d1, d2, d3 := r.next(), r.next(), r.next(); d1 != 0xe220a8397b1dcdaf || d2 != 0x6e789e6aa1b965f4 || d3 != 0x06c45d188009454f {
		t.Errorf("SplitMix64 from 0: %x %x %x", d1, d2, d3)
	}
	for _, bad := range []string{"", "   ", "\u3000\n", strings.Repeat("x", 97), "\xff"} {
		if _, err := seedKey(bad, ""); err == nil {
			t.Errorf("seedKey(%q): no error", bad)
		}
	}
	if _, err := seedKey(strings.Repeat("é", 96), ""); err != nil {
		t.Errorf("96 characters: %v", err)
	}
}

func TestOpeningSeed7(t *testing.T) {
	for _, p := range profileOrder {
		s := newSession(t, "")
		got := boardOf(t, s.ok(newReq(p, "7")))
		want := [][]int64{{2, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 4, 0}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: opening of seed 7 is %v, want %v", p, got, want)
		}
	}
}

func TestNonGreedyMerge(t *testing.T) {
	s := newSession(t, "")
	s.ok(load("tile-merge", "2 2 2 2/. . . ./. . . ./. . . ."))
	m := s.ok(moveSpawn("left", 3, 3, 2))
	if m["changed"] != true || m["gained"] != 8.0 {
		t.Errorf("left: %v", m)
	}
	want := [][]int64{{4, 4, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 2}}
	if got := boardOf(t, m); !reflect.DeepEqual(got, want) {
		t.Errorf("board %v, want %v", got, want)
	}
	if st := m["state"].(map[string]any); st["score"] != 8.0 || st["moves"] != 1.0 {
		t.Errorf("state %v", st)
	}
}

func TestForcedSpawn(t *testing.T) {
	s := newSession(t, "")
	s.ok(newReq("classic", "7"))
	m := s.ok(moveSpawn("right", 2, 1, 4))
	sp := m["spawn"].(map[string]any)
	if sp["row"] != 2.0 || sp["col"] != 1.0 || sp["value"] != 4.0 {
		t.Errorf("spawn %v", sp)
	}
	want := [][]int64{{0, 0, 0, 2}, {0, 0, 0, 0}, {0, 4, 0, 0}, {0, 0, 0, 4}}
	if got := boardOf(t, m); !reflect.DeepEqual(got, want) {
		t.Errorf("board %v, want %v", got, want)
	}
	// A forced spawn on a tile, or of a value the profile does not spawn, is refused.
	if r := s.do(moveSpawn("left", 0, 0, 2)); r["ok"] != false {
		t.Errorf("spawn on a tile: %v", r)
	}
	if r := s.do(moveSpawn("left", 1, 1, 8)); r["ok"] != false {
		t.Errorf("spawn of 8: %v", r)
	}
}

func TestIllegalMove(t *testing.T) {
	s := newSession(t, "")
	s.ok(load("tile-merge", "2 . . ./. . . ./. . . ./. . . ."))
	r := s.do(moveReq("left"))
	if r["ok"] != false || r["error"] != "illegal-move" || !strings.Contains(r["message"].(string), "down, right") {
		t.Errorf("tile-merge left: %v", r)
	}
	// classic ignores it.
	s.ok(load("classic", "2 . . ./. . . ./. . . ./. . . ."))
	r = s.ok(moveReq("up"))
	if r["changed"] != false || r["spawn"] != nil || r["gained"] != 0.0 {
		t.Errorf("classic up: %v", r)
	}
	if _, present := r["spawn"]; !present {
		t.Errorf("spawn must be null, not absent: %v", r)
	}
	if l := s.ok(legalReq)["legal"]; !reflect.DeepEqual(l, []any{"down", "right"}) {
		t.Errorf("legal %v", l)
	}
}

func TestUndoRestoresSpawn(t *testing.T) {
	s := newSession(t, "")
	start := s.ok(newReq("online-2048", "7"))["state"]
	first := s.ok(moveReq("up"))
	if u := s.ok(undoReq)["state"]; !reflect.DeepEqual(u, start) {
		t.Errorf("undo gives %v, want %v", u, start)
	}
	if again := s.ok(moveReq("up")); !reflect.DeepEqual(again, first) {
		t.Errorf("the move after undo gives %v, first time %v", again, first)
	}
	s.ok(undoReq)
	if r := s.do(undoReq); r["error"] != "no-undo" {
		t.Errorf("second undo: %v", r)
	}
	s.ok(moveReq("left"))
	s.ok(endReq)
	if r := s.do(undoReq); r["error"] != "finished" {
		t.Errorf("undo after End run: %v", r)
	}
	if r := s.ok(legalReq)["legal"]; !reflect.DeepEqual(r, []any{}) {
		t.Errorf("legal after the end: %v", r)
	}
	s.ok(newReq("classic", "7"))
	if r := s.do(undoReq); r["error"] != "unsupported" {
		t.Errorf("undo in classic: %v", r)
	}
}

func TestKeepPlaying(t *testing.T) {
	s := newSession(t, "")
	s.ok(load("classic", "1024 1024 . ./. . . ./. . . ./. . . ."))
	st := s.ok(moveSpawn("left", 3, 3, 2))["state"].(map[string]any)
	if st["won"] != true || st["result"] != "target-reached" || st["over"] != true {
		t.Fatalf("after the merge to 2048: %v", st)
	}
	if r := s.ok(moveReq("right")); r["changed"] != false {
		t.Errorf("a move while stopped is ignored: %v", r)
	}
	st = s.ok(keepReq)["state"].(map[string]any)
	if st["won"] != true || st["result"] != "playing" || st["over"] != false {
		t.Errorf("after keep playing: %v", st)
	}
	if r := s.do(keepReq); r["error"] != "not-stopped" {
		t.Errorf("keep playing again: %v", r)
	}
	// A 4096 loaded in classic has not won (the win is a merge making 2048).
	st = s.ok(load("classic", "4096 . . ./. . . ./. . . ./. . . ."))["state"].(map[string]any)
	if st["won"] != false {
		t.Errorf("classic with a loaded 4096: %v", st)
	}
	// In pgs it has.
	st = s.ok(load("pgs", "4096 . . ./. . . ./. . . ./. . . ."))["state"].(map[string]any)
	if st["won"] != true || st["result"] != "target-reached" {
		t.Errorf("pgs with a loaded 4096: %v", st)
	}
}

// TestOwnGenerator checks that games without a tp1 seed do not all spawn
// alike: each load takes a new key from the adapter's own generator.
func TestOwnGenerator(t *testing.T) {
	s := newSession(t, "")
	values, cells := map[float64]int{}, map[[2]float64]int{}
	for range 300 {
		s.ok(load("pgs", "2 . . ./. . . ./. . . ./. . . ."))
		sp := s.ok(moveReq("right"))["spawn"].(map[string]any)
		values[sp["value"].(float64)]++
		cells[[2]float64{sp["row"].(float64), sp["col"].(float64)}]++
	}
	if values[2] < 200 || values[4] < 10 || len(cells) != 15 {
		t.Errorf("300 loads and moves spawned values %v in cells %v", values, cells)
	}
	const unseeded = `{"id":2,"op":"new","profile":"pgs"}`
	if x, y := s.raw(unseeded), s.raw(unseeded); x == y {
		t.Errorf("two new games without a seed start alike: %s", x)
	}
	if x, y := newSession(t, "").raw(unseeded), newSession(t, "").raw(unseeded); x != y {
		t.Errorf("a session does not replay identically: %s, then %s", x, y)
	}
}

func TestMoveLimit(t *testing.T) {
	s := newSession(t, "")
	s.ok(load("online-2048", "2 . . ./. . . ./. . . ./. . . .", `"moves":99999`))
	st := s.ok(moveReq("right"))["state"].(map[string]any)
	if st["moves"] != 100000.0 || st["result"] != "move-limit" {
		t.Errorf("the 100,000th move: %v", st)
	}
	if r := s.ok(moveReq("left")); r["changed"] != false {
		t.Errorf("a move after the limit: %v", r)
	}
}

func TestRequestErrors(t *testing.T) {
	s := newSession(t, "")
	for _, tc := range []struct{ req, word string }{
		{`{"id":9,"op":"move","direction":"left"}`, "no-game"},
		{`{"id":9,"op":"dance"}`, "unsupported-op"},
		{`not json`, "bad-request"},
		{newReq("nope", "7"), "bad-request"},
		{newReq("classic", "   "), "bad-request"},
		{load("classic", "3 . ./. . ./. . ."), "bad-request"},
		{load("classic", "2 ./. ."), ""},
		{`{"id":9,"op":"move","direction":"sideways"}`, "bad-request"},
	} {
		r := s.do(tc.req)
		if tc.word == "" {
			if r["ok"] != true {
				t.Errorf("%s: %v", tc.req, r)
			}
			continue
		}
		if r["ok"] != false || r["error"] != tc.word || r["message"] == "" {
			t.Errorf("%s: %v, want error %s", tc.req, r, tc.word)
		}
	}
	// A spawn the protocol does not send, said in the protocol's words.
	if r := s.do(moveSpawn("left", 9, 0, 2)); r["error"] != "bad-request" || r["message"] != "spawn of 2 at row 9, column 0: not a row and a column from 0 to 7 and a tile" {
		t.Errorf("a spawn at row 9: %v", r)
	}
	if r := s.do(`{"id":42,"op":"dance"}`); r["id"] != 42.0 {
		t.Errorf("id not echoed: %v", r)
	}
	// A line that is not a request with an integer id is answered with
	// the id null (docs/protocol.md).
	for _, line := range []string{`not json`, `{"op":"legal"}`, `{"id":1.5,"op":"legal"}`, `{"id":"7","op":"legal"}`, `[1]`} {
		r := s.do(line)
		if id, present := r["id"]; !present || id != nil || r["error"] != "bad-request" {
			t.Errorf("%s: %v, want id null and bad-request", line, r)
		}
	}
	if r := s.do(`{"id":9,"op":"load","profile":"classic","board":"2 2"}`); r["id"] != 9.0 || r["error"] != "bad-request" {
		t.Errorf("a request of the wrong shape with an id: %v", r)
	}
}

func TestRestricted(t *testing.T) {
	var out strings.Builder
	in := strings.NewReader(helloReq + "\n" + load("classic", "2 . . ./. . . ./. . . ./. . . .") + "\n" +
		newReq("rosetta", "7") + "\n" + `{"id":3,"op":"new","profile":"classic"}` + "\n" + moveSpawn("left", 0, 3, 2) + "\n" +
		`{"id":3,"op":"new","profile":"classic","seed":"7"}` + "\n")
	if code := run([]string{"--profiles", "classic", "--features", "undo,size:3x3"}, in, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`"profiles":["classic"],"features":["undo","size:3x3"]`,
		`"error":"unsupported-op"`, // load without load-state
		`"error":"bad-request"`,    // rosetta not declared
		`"ok":true`,                // new without a seed
		`"error":"bad-request"`,    // a spawn without force-spawn
		`"error":"bad-request"`,    // a seed without seed-tp1
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %s", len(lines), out.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant %s", i+1, lines[i], w)
		}
	}
	for _, args := range [][]string{{"--mutant", "nope"}, {"--profiles", "classic,nope"}, {"--features", "fly"}, {"extra"}} {
		if code := run(args, strings.NewReader(""), io.Discard, io.Discard); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// mutantScripts gives each mutant requests (after hello) on which it
// answers differently from the correct adapter.
var mutantScripts = map[string][]string{
	"greedy-double-merge":      {load("classic", "2 2 2 2/. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"merge-priority-reversed":  {load("classic", "2 2 2 ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"merge-chain":              {load("classic", "2 2 4 ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"no-compress-before-merge": {load("classic", "2 . 2 ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"spawn-after-noop":         {load("classic", "2 . . ./. . . ./. . . ./. . . ."), moveReq("left")},
	"spawn-fifty-fifty":        {newReq("classic", "7")},
	"always-spawn-2":           {newReq("classic", "7")},
	"spawn-on-occupied":        {newReq("classic", "7")},
	"spawn-first-empty-cell":   {newReq("classic", "7")},
	"rng-advances-on-noop":     {load("pgs", "2 . . ./. . . ./. . . ./. . . ."), moveReq("left"), moveReq("down")},
	"tp1-no-trim":              {newReq("classic", " 7 ")},
	"score-both-tiles":         {load("classic", "2 2 . ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"score-old-value":          {load("classic", "2 2 . ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"game-over-ignores-vertical": {
		load("classic", "2 4 8 16/2 32 64 128/4 8 16 32/8 16 32 64"), legalReq},
	"game-over-when-full": {load("classic", "2 2 8 16/4 32 64 128/8 4 16 32/16 8 32 64"), legalReq},
	"finish-order-swapped": {
		load("online-2048", "1024 1024 4 8/16 32 64 128/4 8 16 32/64 128 256 512"), moveSpawn("left", 0, 3, 2)},
	"move-limit-off-by-one": {
		load("online-2048", "2 2 . ./. . . ./. . . ./. . . .", `"moves":99999`), moveSpawn("left", 3, 3, 2)},
	"win-does-not-stop": {load("rosetta", "1024 1024 . ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"win-at-1024":       {load("pgs", "512 512 . ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2)},
	"keep-playing-clears-won": {
		load("classic", "1024 1024 . ./. . . ./. . . ./. . . ."), moveSpawn("left", 3, 3, 2), keepReq},
	"illegal-move-counted":       {load("classic", "2 . . ./. . . ./. . . ./. . . ."), moveReq("left")},
	"illegal-move-not-rejected":  {load("tile-merge", "2 . . ./. . . ./. . . ./. . . ."), moveReq("left")},
	"legal-actions-include-noop": {load("classic", "2 . . ./. . . ./. . . ./. . . ."), legalReq},
	"up-down-swapped":            {newReq("classic", "7"), moveSpawn("up", 1, 1, 2)},
	"undo-does-not-restore-spawn": {
		newReq("online-2048", "7"), moveReq("up"), undoReq, moveReq("up")},
	"undo-twice":           {newReq("online-2048", "7"), moveReq("up"), moveReq("left"), undoReq, undoReq},
	"end-run-wrong-result": {newReq("online-2048", "7"), endReq},
}

// script runs requests after hello and returns the responses.
func script(t *testing.T, mutant string, reqs []string) []string {
	s := newSession(t, mutant)
	var out []string
	for _, r := range reqs {
		out = append(out, s.raw(r))
	}
	return out
}

func TestMutantsDiffer(t *testing.T) {
	for _, m := range mutants {
		t.Run(m.name, func(t *testing.T) {
			reqs, ok := mutantScripts[m.name]
			if !ok {
				t.Fatal("no script for this mutant")
			}
			want := script(t, "", reqs)
			for i, r := range want {
				for _, bad := range []string{"bad-request", "bad-spawn", "no-game", "unsupported-op"} {
					if strings.Contains(r, `"error":"`+bad+`"`) {
						t.Fatalf("the script is wrong: request %s answers %s", reqs[i], r)
					}
				}
			}
			got := script(t, m.name, reqs)
			for i := range want {
				if got[i] != want[i] {
					t.Logf("request %s\ncorrect: %s\nmutant:  %s", reqs[i], want[i], got[i])
					return
				}
			}
			t.Errorf("the mutant answers every request as the correct adapter does")
		})
	}
	for name := range mutantScripts {
		if !isMutant(name) {
			t.Errorf("script for unknown mutant %s", name)
		}
	}
}

func TestMutantCatalogue(t *testing.T) {
	var out strings.Builder
	if code := run([]string{"--list-mutants"}, strings.NewReader(""), &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(mutants) || len(mutants) < 22 {
		t.Fatalf("%d lines for %d mutants", len(lines), len(mutants))
	}
	seen := map[string]bool{}
	for i, l := range lines {
		name, breaks, ok := strings.Cut(l, "\t")
		if !ok || name != mutants[i].name || breaks == "" || seen[name] {
			t.Errorf("line %q", l)
		}
		seen[name] = true
	}
	// Every mutant is a switch in the code: a name nothing tests for would
	// be a mutant that changes nothing.
	src := ""
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "mutants.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src += string(b)
	}
	for _, m := range slices.Concat(mutants, hooks) {
		if !strings.Contains(src, `"`+m.name+`"`) {
			t.Errorf("mutant %s is not used in the code", m.name)
		}
	}
}

// TestAgainstEngine plays random games with the adapter and with the
// engine side by side, from seeds and from random loaded states of every
// size, with every action, and compares every response.
func TestAgainstEngine(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 48))
	games := 150
	if testing.Short() {
		games = 20
	}
	for _, name := range profileOrder {
		base, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for n := range games {
			s := newSession(t, "")
			var g *engine.Game
			var desc string
			if n%3 == 0 {
				seed := fmt.Sprintf("game-%d", n)
				desc = "seed " + seed
				rules, err := engine.Compile(base)
				if err != nil {
					t.Fatal(err)
				}
				if g, err = rules.NewGame(seed); err != nil {
					t.Fatal(err)
				}
				s.ok(newReq(name, seed))
			} else {
				rows, cols := 2+rnd.IntN(7), 2+rnd.IntN(7)
				if n%3 == 1 {
					rows, cols = 4, 4
				}
				p := base.Clone()
				p.Rows, p.Cols = rows, cols
				rules, err := engine.Compile(p)
				if err != nil {
					t.Fatal(err)
				}
				maxExp := 1 + rnd.IntN(11)
				if rnd.IntN(20) == 0 {
					maxExp = 52
				}
				values := make([][]uint64, rows)
				for r := range values {
					values[r] = make([]uint64, cols)
					for c := range values[r] {
						if rnd.IntN(10) >= 3 {
							values[r][c] = 1 << (1 + rnd.IntN(maxExp))
						}
					}
				}
				if maxExp == 52 && rnd.IntN(2) == 0 {
					values[0][0], values[0][1] = 1<<52, 1<<52 // a merge past the largest tile
				}
				b, err := engine.BoardFromValues(values)
				if err != nil {
					t.Fatal(err)
				}
				score := uint64(4 * rnd.IntN(5000))
				if rnd.IntN(20) == 0 {
					score = engine.MaxSafeInteger - uint64(rnd.IntN(5000))
				}
				moves := rnd.IntN(1000)
				if name == "online-2048" && rnd.IntN(3) == 0 {
					moves = 100000 - 1 - rnd.IntN(10)
				}
				won, keep := rnd.IntN(8) == 0, rnd.IntN(8) == 0
				s.a.ownKey() // start the adapter's own generator
				own := *s.a.own
				rng := engine.RNGFromState(own.next()) // the key the load will get
				g, err = rules.Load(engine.State{Board: b, Score: score, Moves: moves, RNG: &rng, Won: won, KeepPlaying: keep})
				if err != nil {
					t.Fatal(err)
				}
				desc = fmt.Sprintf("load %dx%d\n%s", rows, cols, b)
				data, _ := json.Marshal(values)
				s.ok(fmt.Sprintf(`{"id":2,"op":"load","profile":%q,"rows":%d,"cols":%d,"board":%s,"score":%d,"moves":%d,"won":%v,"keepPlaying":%v}`,
					name, rows, cols, data, score, moves, won, keep))
			}
			var log []string
			after := 0
			for step := 0; step < 400 && after < 5; step++ {
				if g.Over() {
					after++
				}
				var req string
				var want map[string]any
				switch k := rnd.IntN(100); {
				case k < 10:
					req = legalReq
					legal := []any{}
					for _, d := range g.LegalMoves() {
						legal = append(legal, d.String())
					}
					want = map[string]any{"ok": true, "legal": legal}
				case k < 16:
					req, want = undoReq, stateOrError(g, g.Undo())
				case k < 18:
					req, want = endReq, stateOrError(g, g.EndRun())
				case k < 21:
					req, want = keepReq, stateOrError(g, g.KeepPlaying())
				default:
					d := engine.Directions[rnd.IntN(4)]
					var st engine.Step
					var err error
					if rnd.IntN(4) == 0 {
						sp := randomSpawn(rnd, g, d)
						req = moveSpawn(d.String(), sp.Row, sp.Col, int(sp.Value))
						st, err = g.MoveSpawn(d, sp)
					} else {
						req = moveReq(d.String())
						st, err = g.Move(d)
					}
					want = stateOrError(g, err)
					if err == nil {
						want["changed"], want["gained"], want["spawn"] = st.Changed, float64(st.Gained), nil
						if st.Changed {
							want["spawn"] = map[string]any{"row": float64(st.Spawn.Row), "col": float64(st.Spawn.Col), "value": float64(st.Spawn.Value)}
						}
					}
				}
				log = append(log, req)
				got := s.do(req)
				delete(got, "id")
				if _, isErr := want["error"]; isErr {
					delete(got, "message")
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %s:\n%s\nafter %s\nadapter: %v\nengine:  %v", name, desc, strings.Join(log, "\n"), req, got, want)
				}
			}
		}
	}
}

// randomSpawn returns a valid spawn for moving g toward d, or now and then
// an invalid one.
func randomSpawn(rnd *rand.Rand, g *engine.Game, d engine.Direction) engine.Spawn {
	b := g.Board()
	sp := engine.Spawn{Row: rnd.IntN(b.Rows()), Col: rnd.IntN(b.Cols()), Value: []uint64{2, 4, 8}[rnd.IntN(3)]}
	if rnd.IntN(10) == 0 {
		if rnd.IntN(3) == 0 && b.Rows() < 8 {
			sp.Row = b.Rows() // off the board (a row past 7 is no request)
		}
		return sp
	}
	sp.Value = []uint64{2, 4}[rnd.IntN(2)]
	s, err := b.Slide(d)
	if err != nil {
		return sp
	}
	var empty [][2]int
	for r := range b.Rows() {
		for c := range b.Cols() {
			if s.Board.At(r, c) == 0 {
				empty = append(empty, [2]int{r, c})
			}
		}
	}
	if len(empty) > 0 {
		e := empty[rnd.IntN(len(empty))]
		sp.Row, sp.Col = e[0], e[1]
	}
	return sp
}

// stateOrError is the response the engine's outcome calls for (without id
// and message).
func stateOrError(g *engine.Game, err error) map[string]any {
	if err != nil {
		word := engine.Refusal(err)
		if errors.Is(err, engine.ErrTileOverflow) || errors.Is(err, engine.ErrScoreOverflow) {
			word = "overflow" // the engine's refusal without a word of its own
		}
		if word == "" {
			word = err.Error()
		}
		return map[string]any{"ok": false, "error": word}
	}
	b := g.Board()
	board := make([]any, b.Rows())
	for r := range board {
		row := make([]any, b.Cols())
		for c := range row {
			row[c] = float64(b.At(r, c))
		}
		board[r] = row
	}
	result, _ := g.Result().MarshalText()
	return map[string]any{"ok": true, "state": map[string]any{
		"board": board, "score": float64(g.Score()), "moves": float64(g.Moves()),
		"won": g.Won(), "over": g.Over(), "result": string(result),
	}}
}

// process is the adapter run as a process: the test binary, re-run.
type process struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
}

func start(t *testing.T, args ...string) *process {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TILEPROOF_ADAPTER_MAIN=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stdin: stdin, lines: make(chan string)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return p
}

// ask writes a request and waits up to d for the answer; ok is false when
// none came (a timeout, or the end of the output).
func (p *process) ask(t *testing.T, req string, d time.Duration) (string, bool) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, req+"\n"); err != nil {
		return "", false
	}
	select {
	case l, ok := <-p.lines:
		return l, ok
	case <-time.After(d):
		return "", false
	}
}

func TestProcess(t *testing.T) {
	p := start(t)
	for _, req := range []string{helloReq, newReq("classic", "7"), moveReq("left"), legalReq} {
		l, ok := p.ask(t, req, 5*time.Second)
		if !ok || !json.Valid([]byte(l)) || !strings.Contains(l, `"ok":true`) {
			t.Fatalf("%s: %q %v", req, l, ok)
		}
	}
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Errorf("exit at the end of the input: %v", err)
	}
}

// startHooked starts the adapter with a hook that breaks it on the 5th
// move request, begins a classic game and asks five moves: the first four
// are answered, the fifth (waited for last) is not.
func startHooked(t *testing.T, hook string, last time.Duration) *process {
	t.Helper()
	p := startClassic(t, "--mutant", hook)
	for i := 1; i <= 5; i++ {
		timeout := 5 * time.Second
		if i == 5 {
			timeout = last
		}
		if _, ok := p.ask(t, moveReq([]string{"left", "right"}[i%2]), timeout); ok != (i < 5) {
			t.Fatalf("move %d: answered %v", i, ok)
		}
	}
	return p
}

// startClassic starts the adapter with args, says hello and begins a
// classic game.
func startClassic(t *testing.T, args ...string) *process {
	t.Helper()
	p := start(t, args...)
	p.ask(t, helloReq, 5*time.Second)
	p.ask(t, newReq("classic", "7"), 5*time.Second)
	return p
}

func TestHookCrashOnMove(t *testing.T) {
	p := startHooked(t, "crash-on-move", 5*time.Second)
	err := p.cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Errorf("exit: %v, want status 3", err)
	}
}

func TestHookHangOnMove(t *testing.T) {
	p := startHooked(t, "hang-on-move", 300*time.Millisecond)
	p.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the hung adapter exited: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	p.cmd.Process.Kill()
	<-done
}

func TestHookGarbageOnLegal(t *testing.T) {
	p := startClassic(t, "--mutant", "garbage-on-legal")
	l, ok := p.ask(t, legalReq, 5*time.Second)
	if !ok || json.Valid([]byte(l)) {
		t.Errorf("legal answered %q, %v; want a line that is not JSON", l, ok)
	}
	if l, ok := p.ask(t, moveReq("left"), 5*time.Second); !ok || !json.Valid([]byte(l)) {
		t.Errorf("move after the garbage: %q, %v", l, ok)
	}
}

// TestSetupAsEngine: the adapter takes and refuses the run setups the
// engine takes and refuses, in every profile (a setup that changes
// nothing, the profile's own win tile, is taken everywhere), with the
// words of docs/protocol.md: unsupported for a setup the profile does not
// offer, bad-request for a setup the implementation did not declare.
func TestSetupAsEngine(t *testing.T) {
	for _, name := range profileOrder {
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, target := range []uint64{0, 128, 256, 512, 2048, 4096} {
			for _, open := range []bool{false, true} {
				setup := fmt.Sprintf(`{"target":%d,"openEnded":%v}`, target, open)
				r := newSession(t, "").do(fmt.Sprintf(`{"id":2,"op":"new","profile":%q,"seed":"7","setup":%s}`, name, setup))
				_, err := p.WithSetup(engine.Setup{Target: target, OpenEnded: open})
				switch {
				case err == nil && r["ok"] != true:
					t.Errorf("%s, setup %s: the engine takes it, the adapter answers %v", name, setup, r)
				case err != nil && r["error"] != "unsupported":
					t.Errorf("%s, setup %s: the engine refuses it (%v), the adapter answers %v", name, setup, err, r)
				}
			}
		}
	}
	a := &adapter{profiles: slices.Clone(profileOrder), features: []string{"seed-tp1"}}
	s := &session{t, a}
	s.ok(helloReq)
	if r := s.do(`{"id":2,"op":"new","profile":"online-2048","seed":"7","setup":{"target":512}}`); r["error"] != "bad-request" {
		t.Errorf("a setup without the feature: %v", r)
	}
}

// TestStatedAnswers holds the adapter to the answers docs/protocol.md
// states for requests the runner never sends and for the rules' corners:
// the order of the error words, ids out of range and repeated keys (not a
// request: the id null), a spawn outside the schema (bad-request) or off
// this board (bad-spawn), an invalid seed, overflow before bad-spawn, the
// move count's bound, and loaded won and keepPlaying taken as given.
func TestStatedAnswers(t *testing.T) {
	load := func(profile, board string, moves int64, won, keep bool) string {
		return fmt.Sprintf(`{"id":2,"op":"load","profile":%q,"rows":4,"cols":4,"board":%s,"score":0,"moves":%d,"won":%v,"keepPlaying":%v}`, profile, board, moves, won, keep)
	}
	const twos = `[[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]`
	const top = `[[4503599627370496,4503599627370496,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]`
	for _, c := range []struct {
		name   string
		hello  bool
		before []string // requests answered first
		req    string
		want   string // the error word, or "" for ok
		idNull bool
	}{
		{"unknown op before hello", false, nil, `{"id":1,"op":"frob"}`, "unsupported-op", false},
		{"op not a string", true, nil, `{"id":2,"op":5}`, "unsupported-op", false},
		{"known op before hello, fields wrong", false, nil, `{"id":1,"op":"move","direction":5}`, "no-hello", false},
		{"no game before a wrong field", true, nil, `{"id":2,"op":"move","direction":"sideways"}`, "no-game", false},
		{"wrong field with a game", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"sideways"}`, "bad-request", false},
		{"id 0", true, nil, `{"id":0,"op":"new","profile":"classic"}`, "bad-request", true},
		{"id -5", true, nil, `{"id":-5,"op":"new","profile":"classic"}`, "bad-request", true},
		{"id past 2^53-1", true, nil, `{"id":9007199254740992,"op":"new","profile":"classic"}`, "bad-request", true},
		{"a key twice", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"left","direction":"right"}`, "bad-request", true},
		{"a nested key twice", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"left","spawn":{"row":1,"row":1,"col":0,"value":2}}`, "bad-request", true},
		{"spawn row 9", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"left","spawn":{"row":9,"col":0,"value":2}}`, "bad-request", false},
		{"spawn value 3", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"left","spawn":{"row":1,"col":0,"value":3}}`, "bad-request", false},
		{"spawn row 5 on 4x4", true, []string{load("classic", twos, 0, false, false)}, `{"id":3,"op":"move","direction":"left","spawn":{"row":5,"col":0,"value":2}}`, "bad-spawn", false},
		{"invalid seed", true, nil, `{"id":2,"op":"new","profile":"classic","seed":" "}`, "bad-request", false},
		{"overflow before bad-spawn", true, []string{load("classic", top, 0, false, false)}, `{"id":3,"op":"move","direction":"left","spawn":{"row":0,"col":0,"value":8}}`, "overflow", false},
		{"moves past 2^53-1", true, []string{load("classic", twos, 9007199254740991, false, false)}, `{"id":3,"op":"move","direction":"left"}`, "overflow", false},
		{"load moves past 2^53-1", true, nil, load("classic", twos, 9007199254740992, false, false), "bad-request", false},
		{"keep-playing after keepPlaying loaded without a win", true, []string{load("classic", twos, 0, false, true)}, `{"id":3,"op":"keep-playing"}`, "not-stopped", false},
	} {
		s := &session{t, newAdapter("")}
		if c.hello {
			s.ok(helloReq)
		}
		for _, r := range c.before {
			s.ok(r)
		}
		m := s.do(c.req)
		got, _ := m["error"].(string)
		if got != c.want || (m["id"] == nil) != c.idNull {
			t.Errorf("%s: %s: got %v, want error %q (id null %v)", c.name, c.req, m, c.want, c.idNull)
		}
	}
	// An op whose feature is not declared is unsupported-op before hello too.
	bare := &session{t, &adapter{profiles: slices.Clone(profileOrder)}}
	if m := bare.do(`{"id":1,"op":"undo"}`); m["error"] != "unsupported-op" {
		t.Errorf("undo undeclared, before hello: %v", m)
	}
	// A loaded won is kept as given under the reach rule, below the win
	// tile too (pgs then stops at once, tile-merge plays on); classic keeps
	// a keepPlaying loaded without a win, and its later win does not stop.
	s := newSession(t, "")
	if st := s.ok(load("tile-merge", twos, 0, true, false))["state"].(map[string]any); st["won"] != true || st["over"] != false {
		t.Errorf("tile-merge loaded won below the win tile: %v", st)
	}
	if st := s.ok(load("pgs", twos, 0, true, false))["state"].(map[string]any); st["won"] != true || st["result"] != "target-reached" {
		t.Errorf("pgs loaded won below the win tile: %v", st)
	}
	s.ok(load("classic", `[[1024,1024,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]`, 0, false, true))
	if st := s.ok(`{"id":3,"op":"move","direction":"left"}`)["state"].(map[string]any); st["won"] != true || st["over"] != false {
		t.Errorf("classic loaded keepPlaying without a win, then the win: %v", st)
	}
}
