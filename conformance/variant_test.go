package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tileproof/tileproof/engine"
)

// continueVariant is classic whose win does not stop play: the variant
// of implementations that keep playing after 2048.
func continueVariant(t *testing.T) *engine.Profile {
	t.Helper()
	p, err := engine.ParseProfile("classic-continue.yaml", []byte("name: classic-continue\nbase: classic\nwin: {then: continue}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestVariantWholeSuite: the engine playing a variant passes the whole
// suite under it, the cases written for other profiles with the engine's
// expectations under the variant, and the property checks; and it passes
// --strict: a case the engine cannot derive under the variant is not
// applicable, never a skip, for no implementation could run it. A case
// that starts from a win kept playing runs under a variant whose win goes
// on (the flag changes nothing there) and is not applicable under one
// whose win ends the run, where no game reaches it: the engine plays it
// on, and an honest implementation of the variant, which ends it, failed
// it (found by 2048term, docs/2048term.md).
func TestVariantWholeSuite(t *testing.T) {
	stop, err := engine.ParseProfile("classic-stop.yaml", []byte("name: classic-stop\nbase: classic\nwin: {then: stop}\n"))
	if err != nil {
		t.Fatal(err)
	}
	const kept = "profiles/loaded-won-keep-playing-classic-plays"
	for _, v := range []*engine.Profile{continueVariant(t), stop} {
		rep, err := Run(t.Context(), loadRepoPack(t), &Builtin{Profiles: []*engine.Profile{v}}, Options{Profiles: []string{v.Name}, Properties: true, Known: []*engine.Profile{v}})
		if err != nil {
			t.Fatal(err)
		}
		passed, properties, keptSeen := 0, 0, false
		for _, r := range rep.Results {
			switch {
			case r.Status.Failed():
				t.Errorf("%s [%s]: %s at step %d: %s", r.Case, r.Profile, r.Status, r.Step, r.explain("\t"))
			case r.Status == Skip && !r.NotApplicable:
				t.Errorf("%s [%s]: skipped, not n/a (--strict fails it): %s", r.Case, r.Profile, r.Reason)
			case r.Status == Pass && r.Area == "properties":
				properties++
			case r.Status == Pass:
				passed++
			}
			if r.Profile != v.Name {
				t.Errorf("%s is reported under %q", r.Case, r.Profile)
			}
			if r.Case == kept {
				keptSeen = true
				na := r.Status == Skip && r.NotApplicable && strings.Contains(r.Reason, "it starts from a win kept playing; profile classic-stop's win ends the run")
				if want := v == stop; na != want || !na && r.Status != Pass {
					t.Errorf("%s [%s]: %s %q; want not applicable %v, else a pass", r.Case, r.Profile, r.Status, r.Reason, want)
				}
			}
		}
		if passed < 150 || properties < 4 || !keptSeen {
			t.Errorf("%s: %d cases and %d properties passed; %s seen %v", v.Name, passed, properties, kept, keptSeen)
		}
	}
}

// classicAsVariant plays classic's rules, the win stopping play, whatever
// profile it is asked for: an implementation that claims a variant it
// does not follow.
type classicAsVariant struct {
	*Builtin
	variant string
}

func (c classicAsVariant) Hello() (Hello, error) {
	h, err := c.Builtin.Hello()
	h.Profiles = []string{c.variant}
	return h, err
}

func (c classicAsVariant) New(profile, seed string, setup *engine.Setup) (ImplState, error) {
	return c.Builtin.New("classic", seed, setup)
}

func (c classicAsVariant) Load(profile string, st LoadState) (ImplState, error) {
	return c.Builtin.Load("classic", st)
}

// TestVariantCatchesItsRules: the derived expectations are the variant's,
// not the cases' own: classic's rules fail the variant where the win
// stops play, and only there.
func TestVariantCatchesItsRules(t *testing.T) {
	v := continueVariant(t)
	rep, err := Run(t.Context(), loadRepoPack(t), classicAsVariant{&Builtin{}, v.Name}, Options{Known: []*engine.Profile{v}})
	if err != nil {
		t.Fatal(err)
	}
	failed, _ := rep.Failures()
	if len(failed) == 0 {
		t.Fatal("classic's rules pass a variant whose win does not stop play")
	}
	for _, r := range failed {
		if r.Status != FlagsDiffer && r.Status != IllegalHandled && r.Status != LegalityDiffer && !strings.Contains(r.Reason, "no open-ended play") {
			t.Errorf("%s: %s: %s (a win that stops play shows in the flags, the legal moves, moves after the end and a refused open-ended setup)", r.Case, r.Status, r.Reason)
		}
	}
	t.Logf("%d failures, first %s: %s", len(failed), failed[0].Case, failed[0].Reason)
}

// declaresFile is the engine declaring a profile by the path of its file.
type declaresFile struct {
	*Builtin
	path string
}

func (d declaresFile) Hello() (Hello, error) {
	h, err := d.Builtin.Hello()
	h.Profiles = []string{d.path, d.path}
	return h, err
}

// TestProfileFileInHello: a profile file an implementation names in hello
// by its path runs under its name, once though declared twice, when the
// run names the same file (by another spelling of the path too); without
// that it is refused, unread; an unknown profile is an error.
func TestProfileFileInHello(t *testing.T) {
	v := continueVariant(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(path, []byte("name: classic-continue\nbase: classic\nwin: {then: continue}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, asked := range []string{path, filepath.Join(dir, ".", "sub", "..", "mine.yaml")} {
		rep, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{Profiles: []*engine.Profile{v}}, path}, Options{Profiles: []string{asked}})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, r := range rep.Results {
			seen[r.Profile]++
			if r.Status.Failed() {
				t.Errorf("%s: %s", r.Case, r.Reason)
			}
		}
		if len(seen) != 1 || seen[v.Name] == 0 || seen[v.Name] > len(loadRepoPack(t).Cases) {
			t.Errorf("results by profile %v", seen)
		}
	}
	_, err := Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{Profiles: []*engine.Profile{v}}, path}, Options{})
	if err == nil || !strings.Contains(err.Error(), "reads a profile file only when the run names it too") {
		t.Errorf("a profile file the run did not name: %v", err)
	}
	_, err = Run(t.Context(), loadRepoPack(t), declaresFile{&Builtin{}, "no-such-profile"}, Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown profile "no-such-profile"`) {
		t.Errorf("an unknown profile: %v", err)
	}
}

// TestProfileFileAskedFor: a run asked for a profile file by its path
// reads it and runs it under its name when the implementation declares
// that name, and says which file it could not read.
func TestProfileFileAskedFor(t *testing.T) {
	v := continueVariant(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(path, []byte("name: classic-continue\nbase: classic\nwin: {then: continue}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	impl := classicAsVariant{&Builtin{Profiles: []*engine.Profile{v}}, v.Name}
	rep, err := Run(t.Context(), loadRepoPack(t), impl, Options{Profiles: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) == 0 || rep.Results[0].Profile != v.Name {
		t.Fatalf("%d results, the first under %q", len(rep.Results), rep.Results[0].Profile)
	}
	failed := 0
	for _, r := range rep.Results {
		if r.Status.Failed() {
			failed++
		}
	}
	if failed == 0 {
		t.Error("classic's rules pass the variant asked for by its file")
	}
	if _, err := Run(t.Context(), loadRepoPack(t), impl, Options{Profiles: []string{filepath.Join(dir, "absent.yaml")}}); err == nil || !strings.Contains(err.Error(), "the profile file asked for") {
		t.Errorf("an absent profile file asked for: %v", err)
	}
}

// TestBuiltinPlaysAnyProfileFile: the engine plays a profile file it was
// not built with once the run adds it, and every case that runs under the
// variant passes (the engine is the variant's expectations); an
// implementation that does not declare the file's name is refused, the
// refusal naming what it declares by name.
func TestBuiltinPlaysAnyProfileFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(path, []byte("name: classic-continue\nbase: classic\nwin: {then: continue}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), loadRepoPack(t), &Builtin{}, Options{Profiles: []string{path}}); err == nil || !strings.Contains(err.Error(), `does not declare profile "classic-continue" (it declares classic,`) {
		t.Errorf("a file the engine was not given: %v", err)
	}
	b := &Builtin{}
	if err := b.AddProfileFiles([]string{"classic", path, path}); err != nil {
		t.Fatal(err)
	}
	if len(b.Profiles) != 1 {
		t.Errorf("%d profiles added, want the file's one", len(b.Profiles))
	}
	rep, err := Run(t.Context(), loadRepoPack(t), b, Options{Profiles: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, r := range rep.Results {
		if r.Profile != "classic-continue" {
			t.Fatalf("a result under %q", r.Profile)
		}
		if r.Status.Failed() {
			t.Errorf("%s: %s: %s", r.Case, r.Status, r.Reason)
		}
		if r.Status == Pass {
			ran++
		}
	}
	if ran < 100 {
		t.Errorf("%d cases passed under the file", ran)
	}
}
