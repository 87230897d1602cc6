package conformance

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

func matrixReport(name, version string, results ...CaseResult) *Report {
	return &Report{Impl: Hello{Name: name, Version: version}, Pack: "p", PackVersion: "1", Contract: 1, Results: results}
}

func matrixResult(area string, st Status) CaseResult {
	return CaseResult{Case: area + "/x", Area: area, Profile: "classic", Status: st}
}

func TestWriteMatrix(t *testing.T) {
	reports := []*Report{
		matrixReport("good", "1", matrixResult("core", Pass), matrixResult("core", Pass), matrixResult("line", Skip)),
		matrixReport("bad", "1+a", matrixResult("core", Pass), matrixResult("core", BoardDiverged), matrixResult("line", Skip)),
		matrixReport("bad", "1+b", matrixResult("core", Pass), matrixResult("core", ScoreDiverged), matrixResult("line", Skip)),
		matrixReport("other", "2", matrixResult("core", Pass), matrixResult("core", Pass), matrixResult("tp1", Pass)),
	}
	var b strings.Builder
	if err := WriteMatrix(&b, reports); err != nil {
		t.Fatal(err)
	}
	want := `Pack p 1, rules contract 1. A cell: ✓ and the cases passed, or ✗ and the cases failed of those run; skipped cases in brackets; skipped where none ran.

| implementation | core | line | tp1 | total |
|---|---|---|---|---|
| good 1 | ✓ 2 | skipped (1) | – | ✓ 2 (1) |
| bad 1+a<br>bad 1+b | ✗ 1 of 2 | skipped (1) | – | ✗ 1 of 2 (1) |
| other 2 | ✓ 2 | – | ✓ 1 | ✓ 3 |

What failed first, case by case (the profiles it failed under):

- bad 1+a: ` + "`core/x` board-diverged (classic)" + `
- bad 1+b: ` + "`core/x` score-diverged (classic)" + `
`
	if diff := gocmp.Diff(want, b.String()); diff != "" {
		t.Errorf("matrix (-want +got):\n%s", diff)
	}
}

func TestWriteMatrixRefusesMixedPacks(t *testing.T) {
	a, b := matrixReport("a", "1"), matrixReport("b", "1")
	b.PackVersion = "2"
	var out strings.Builder
	err := WriteMatrix(&out, []*Report{a, b})
	if err == nil || !strings.Contains(err.Error(), "a 1 ran the pack p 1 (contract 1), b 1 ran p 2") {
		t.Errorf("err = %v", err)
	}
	if err := WriteMatrix(&out, nil); err == nil {
		t.Error("no reports: no error")
	}
}

func TestWriteMatrixGroupsFailuresByCase(t *testing.T) {
	fail := func(c, profile string) CaseResult {
		return CaseResult{Case: c, Area: "core", Profile: profile, Status: BoardDiverged}
	}
	r := matrixReport("bad", "1", fail("core/a", "classic"), fail("core/a", "pgs"), fail("core/b", "classic"),
		fail("core/c", "classic"), fail("core/d", "classic"), fail("core/e", "rosetta"))
	var b strings.Builder
	if err := WriteMatrix(&b, []*Report{r}); err != nil {
		t.Fatal(err)
	}
	want := "- bad 1: `core/a` board-diverged (classic, pgs); `core/b` board-diverged (classic); `core/c` board-diverged (classic); 2 more cases\n"
	if !strings.HasSuffix(b.String(), want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", b.String(), want)
	}
}
