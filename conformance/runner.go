package conformance

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/protocol"
)

// Options select and shape a run.
type Options struct {
	Profiles []string       // the profiles to run; nil: every profile the implementation declares
	Run      *regexp.Regexp // run only the cases whose AREA/ID matches; nil: all
	// Expectations are known deviations: CASE or CASE@PROFILE to the
	// reason the implementation fails it.
	Expectations map[string]string
	// Properties runs the property checks and the exhaustive line check
	// after the cases.
	Properties bool
	// Known are profiles the run knows beside the built-in ones (profile
	// files), by name.
	Known []*engine.Profile
	// FailFast ends the run at its first unexpected failure (one
	// [Report.Failures] counts): the checks after it are reported
	// [NotRun], as when ctx ends the run.
	FailFast bool
}

// Report is the outcome of a run.
type Report struct {
	Impl        Hello         `json:"impl"`
	Pack        string        `json:"pack"`
	PackVersion string        `json:"packVersion"`
	Contract    int           `json:"contract"`
	Results     []CaseResult  `json:"results"`
	Duration    time.Duration `json:"durationNs"`
	RunInfo                   // when and how the run was made (describe.go)
	// Verdict is the gated verdict, set by [Report.Gate]; nil before.
	Verdict *Gate `json:"gate,omitempty"`
}

// LegalUncompared reports whether a step's legal moves went uncompared
// because the implementation does not list them (it answers legal with
// unsupported-op, which the protocol allows): the reports say so, so
// that a pass is not read as legal moves checked.
func (r *Report) LegalUncompared() bool {
	return slices.ContainsFunc(r.Results, func(res CaseResult) bool { return res.LegalUncompared })
}

// Failures returns the failed results that were not expected, and the
// expected failures that passed. A failure on a state no game reaches is
// not among them ([Report.UnreachableFailures]).
func (r *Report) Failures() (unexpected, unexpectedPasses []CaseResult) {
	return r.where(CaseResult.unexpectedFailure), r.where(func(res CaseResult) bool { return res.Status == Pass && res.Expected != "" })
}

// unexpectedFailure reports whether res is a failure that is neither
// expected nor on a state no game reaches.
func (res CaseResult) unexpectedFailure() bool {
	return res.Status.Failed() && res.Expected == "" && res.Unreachable == ""
}

// HelloOf asks the implementation what it is and checks it speaks this
// runner's protocol and has the methods its features need.
func HelloOf(impl Impl) (Hello, error) {
	hello, err := impl.Hello()
	if err != nil {
		return hello, fmt.Errorf("hello: %w", err)
	}
	if hello.Protocol != 0 && hello.Protocol != protocol.Version {
		return hello, fmt.Errorf("the implementation speaks protocol %d; this runner speaks %d", hello.Protocol, protocol.Version)
	}
	if _, ok := impl.(Loader); hello.Has(protocol.LoadState) && !ok {
		return hello, fmt.Errorf("the implementation declares %s but has no Load method", protocol.LoadState)
	}
	for _, f := range []string{protocol.Undo, protocol.EndRun, protocol.KeepPlaying} {
		if _, ok := impl.(Doer); hello.Has(f) && !ok {
			return hello, fmt.Errorf("the implementation declares %s but has no Do method", f)
		}
	}
	var profiles []string
	for _, p := range hello.Profiles {
		if !slices.Contains(profiles, p) {
			profiles = append(profiles, p) // a profile declared twice runs once
		}
	}
	hello.Profiles = profiles
	return hello, nil
}

// profileNames returns the names of profiles, in order.
func profileNames(profiles []*engine.Profile) []string {
	var names []string
	for _, p := range profiles {
		names = append(names, p.Name)
	}
	return names
}

// Profiles returns the profiles a run under hello h runs: the ones asked
// for (by name, or by the path of a profile file), which the
// implementation must declare, or all it declares; each must be known
// (built in, in known, or a profile file the implementation declares or
// the run asks for by its path, read relative to the runner's directory).
// Exploration and observation run the same profiles as the cases.
func Profiles(h Hello, asked []string, known []*engine.Profile) ([]*engine.Profile, error) {
	known = slices.Clone(known)
	// The profile files asked for, read first: a profile file the
	// implementation declares is never read unless the run names it too.
	var files []namedFile
	var names []string // the profiles asked for, by name
	for _, p := range asked {
		if isProfileFile(p) {
			prof, err := readProfileFile(p, "the profile file asked for")
			if err != nil {
				return nil, err
			}
			fi, _ := os.Stat(p)
			files = append(files, namedFile{path: p, info: fi, profile: prof})
			known = append(known, prof)
			p = prof.Name
		}
		if !slices.Contains(names, p) {
			names = append(names, p)
		}
	}
	var declared []string // the declared profiles, by name
	for _, d := range h.Profiles {
		name := d
		if isProfileFile(d) {
			k := slices.IndexFunc(files, func(f namedFile) bool { return f.sameFile(d) })
			switch {
			case k >= 0:
				name = files[k].profile.Name
			case asked != nil:
				continue // not asked for: not run, not read
			default:
				return nil, fmt.Errorf("the implementation declares the profile file %q; the runner reads a profile file only when the run names it too: --profile PATH of that file", d)
			}
		}
		if !slices.Contains(declared, name) {
			declared = append(declared, name)
		}
	}
	if asked == nil {
		names = declared
	}
	for _, p := range names {
		if !slices.Contains(declared, p) {
			return nil, fmt.Errorf("the implementation does not declare profile %q (it declares %s)", p, strings.Join(declared, ", "))
		}
	}
	var out []*engine.Profile
	for _, name := range names { // one of known, or a built-in profile
		if i := slices.IndexFunc(known, func(p *engine.Profile) bool { return p.Name == name }); i >= 0 {
			out = append(out, known[i])
			continue
		}
		p, err := engine.BuiltinProfile(name)
		if err != nil {
			return nil, fmt.Errorf("unknown profile %q: it is not built in, and no profile file of that name was given (--profile FILE)", name)
		}
		out = append(out, p)
	}
	return out, nil
}

// Run runs a pack against an implementation. ctx bounds the run: once
// it is done (its deadline, a cancellation such as an interrupt), no
// further check begins, and every check not reached or not finished is
// reported as [NotRun] with the context's cause; the report of what ran
// is returned all the same. A driver of package conformance/driver bound
// to the same context ends the request under way at once.
func Run(ctx context.Context, pack *Pack, impl Impl, opts Options) (*Report, error) {
	ctx, failFast := context.WithCancelCause(ctx) // ends the run for Options.FailFast
	defer failFast(nil)
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("not run: %w", context.Cause(ctx))
	}
	rep, checks, err := plan(ctx, pack, impl, opts)
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
		}
		return nil, err
	}
	for _, c := range checks {
		failed := false
		for _, res := range c.run() {
			if ctx.Err() != nil && (res.Status == Timeout || res.Status == Crash || res.Status == "" || res.Status == NotRun) {
				// The request under way when the run ended: its failure (a
				// driver's) is the run's end, not the implementation's.
				res = notRun(res, ctx)
			}
			rep.Append(opts.Expectations, res)
			failed = failed || rep.Results[len(rep.Results)-1].unexpectedFailure()
		}
		if failed && opts.FailFast {
			failFast(fmt.Errorf("the run ended at its first failure, %s (fail fast)", c.name))
		}
	}
	rep.Duration = time.Since(start)
	return rep, nil
}

// notRun returns res as not run: the run ended before it ran or while it
// ran.
func notRun(res CaseResult, ctx context.Context) CaseResult {
	return CaseResult{Case: res.Case, Area: res.Area, Profile: res.Profile, File: res.File, Line: res.Line,
		Unreachable: res.Unreachable, Status: NotRun, Reason: "not run: " + context.Cause(ctx).Error()}
}

// check is one check of a run: a case under a profile, or a property
// check of a profile.
type check struct {
	name string // AREA/ID@PROFILE, or properties@PROFILE
	run  func() []CaseResult
}

// plan says hello and returns the run's report, still empty, and its
// checks in order.
func plan(ctx context.Context, pack *Pack, impl Impl, opts Options) (*Report, []check, error) {
	hello, err := HelloOf(impl)
	if err != nil {
		return nil, nil, err
	}
	profiles, err := Profiles(hello, opts.Profiles, opts.Known)
	if err != nil {
		return nil, nil, err
	}
	// The report names the profiles run by name (a profile file declared
	// by its path included).
	named := hello
	named.Profiles = profileNames(profiles)
	rep := &Report{Impl: named, Pack: pack.Name, PackVersion: pack.Version, Contract: pack.Contract}
	var checks []check
	for _, c := range pack.Cases {
		if opts.Run != nil && !opts.Run.MatchString(c.Name()) {
			continue
		}
		for _, p := range profiles {
			// A variant runs every case but those written for it by name
			// with the engine's expectations under its rules.
			variant := !isBuiltin(p.Name) && !slices.Contains(c.Profiles, p.Name)
			if !c.appliesTo(p.Name) && !variant {
				continue
			}
			checks = append(checks, check{c.Name() + "@" + p.Name, func() []CaseResult {
				res := CaseResult{Case: c.Name(), Area: c.Area, Profile: p.Name, File: c.File, Line: c.Line, Unreachable: c.Unreachable}
				if ctx.Err() != nil {
					return []CaseResult{notRun(res, ctx)}
				}
				needs := caseNeeds(c, p)
				if na := cmp.Or(notApplicable(hello, p, needs, variant), pastInt(c)); na != "" {
					res.Status, res.Reason, res.NotApplicable = Skip, na, true
					return []CaseResult{res}
				}
				run := c
				if variant {
					var why string
					if run, why = derive(c, p); why != "" {
						// The variant's rules or the suite's limit, never
						// the implementation's (declaring a feature would
						// not let it run): --strict passes it.
						res.Status, res.Reason, res.NotApplicable = Skip, "not applicable: it cannot run under this profile: "+why, true
						return []CaseResult{res}
					}
				}
				if reason := missingReason(hello, p.Name, needs); reason != "" {
					res.Status, res.Reason = Skip, reason
				} else {
					res.Unreachable = cmp.Or(res.Unreachable, winUnreachable(run.Start, p))
					runCase(impl, run, p, &res)
				}
				return []CaseResult{res}
			}})
		}
	}
	if opts.Properties {
		tests := 0 // the statistical tests of the property checks under one profile
		for _, prop := range properties {
			tests += prop.tests
		}
		alpha := falseAlarmRate / float64(max(1, tests*len(profiles)))
		for _, p := range profiles {
			checks = append(checks, check{"properties@" + p.Name, func() []CaseResult { return runProperties(ctx, impl, hello, p, opts.Run, alpha) }})
		}
	}
	return rep, checks, nil
}

// Append adds results of checks run beside the pack (observation's, say)
// to the report, each marked expected when expectations name it, so
// that baselines, JUnit, HTML and the exit status count them as they
// count the cases.
func (r *Report) Append(expectations map[string]string, results ...CaseResult) {
	for _, res := range results {
		res.expect(expectations)
		r.Results = append(r.Results, res)
	}
}

// expect sets the result's known-deviation reason, if expectations (by
// CASE@PROFILE, or by CASE) give one.
func (res *CaseResult) expect(expectations map[string]string) {
	if why, ok := expectations[res.Key()]; ok {
		res.Expected = why
	} else if why, ok := expectations[res.Case]; ok {
		res.Expected = why
	}
}

// caseNeeds returns the features case c needs under profile p: its own,
// and a 4x4 start board's size under a profile of another size (the
// size of any other board is among c's own; 4x4 needs no declaring
// where it is the profile's size).
func caseNeeds(c *Case, p *engine.Profile) []string {
	if b := c.Start.Board; b != nil && b.Rows() == 4 && b.Cols() == 4 && (p.Rows != 4 || p.Cols != 4) {
		return append(slices.Clip(c.Features), protocol.SizeFeature(4, 4))
	}
	return c.Features
}

// missingReason returns why a check under profile that needs these
// features is skipped for an implementation that declares h ("needs
// load-state, seed-tp1"), or "" when it declares them all.
func missingReason(h Hello, profile string, needs []string) string {
	if missing := slices.DeleteFunc(slices.Clone(needs), func(f string) bool { return h.hasUnder(profile, f) }); len(missing) > 0 {
		return needsPrefix + strings.Join(missing, ", ")
	}
	return ""
}

// needsPrefix begins the reason of a check skipped for features the
// implementation does not declare; the features follow, comma-separated.
const needsPrefix = "needs "

// SkipsByFeature counts, for each feature (or board size) the
// implementation does not declare, the checks skipped for want of it: a
// check that needs two such features counts for both. Not-applicable
// checks are not skips and count for none.
func (r *Report) SkipsByFeature() map[string]int {
	n := map[string]int{}
	for _, res := range r.Results {
		if missing, ok := strings.CutPrefix(res.Reason, needsPrefix); ok && res.Status == Skip && !res.NotApplicable {
			for f := range strings.SplitSeq(missing, ", ") {
				n[f]++
			}
		}
	}
	return n
}

// notApplicable returns why a check under profile p that needs these
// features cannot apply to an implementation of p ("not applicable:
// profile online-2048 plays only 4x4 boards (the case needs
// size:3x3)"), or "" when it can: a feature p's own rules rule out
// ([ruledOut]) that the implementation does not declare, or under a
// variant any such feature (the variant's derived case could not run
// there, declared or not). A feature the implementation declares under a
// built-in profile runs the case as it is written.
func notApplicable(h Hello, p *engine.Profile, needs []string, variant bool) string {
	var why []string
	for _, f := range needs {
		if r := ruledOut(p, f); r != "" && (variant || !h.hasUnder(p.Name, f)) {
			why = append(why, fmt.Sprintf("%s (the case needs %s)", r, f))
		}
	}
	if len(why) == 0 {
		return ""
	}
	return "not applicable: " + strings.Join(why, "; ")
}

// ruledOut returns how profile p's own rules rule feature f out, "" when
// they do not: a board size other than p's rows x cols, keep playing
// where p's win does not stop play to ask, undo or End run where p has
// none. The protocol's capabilities (load-state, force-spawn, seed-tp1,
// setup) are never ruled out: an implementation that does not declare
// one leaves a real gap in what is checked.
func ruledOut(p *engine.Profile, f string) string {
	switch {
	case f == protocol.Undo && !p.Undo:
		return fmt.Sprintf("profile %s has no undo", p.Name)
	case f == protocol.EndRun && !p.EndRun:
		return fmt.Sprintf("profile %s has no End run", p.Name)
	case f == protocol.KeepPlaying && p.Win.Then != engine.Ask:
		return fmt.Sprintf("profile %s has no keep playing: its win.then is %s, not ask", p.Name, p.Win.Then)
	case strings.HasPrefix(f, "size:") && f != protocol.SizeFeature(p.Rows, p.Cols):
		return fmt.Sprintf("profile %s plays only %dx%d boards", p.Name, p.Rows, p.Cols)
	}
	return ""
}

// runCase runs case c against the implementation under profile p and
// records its outcome in res: Pass, or the first failing step's failure.
func runCase(impl Impl, c *Case, p *engine.Profile, res *CaseResult) {
	s := &session{impl: impl, profile: p}
	defer func() { res.LegalUncompared = s.legalUnlisted }()
	if !s.start(c.Start, res) {
		return
	}
	for i, step := range c.Steps {
		if !s.step(step, i+1, res) {
			return
		}
	}
	res.Status = Pass
}

// pastInt says why case c cannot run in this build, or "": where int has
// 32 bits (386, arm), a move count past 2^31-1, which the states this
// build sends and reads cannot carry. The suite's limit, not the
// implementation's: not applicable, as a property check the suite has
// for 4x4 boards only is under a 3x3 profile.
func pastInt(c *Case) string {
	n := c.Start.Moves
	for _, s := range c.Steps {
		if s.Expect.Moves != nil {
			n = max(n, *s.Expect.Moves)
		}
	}
	if n > math.MaxInt {
		return fmt.Sprintf("not applicable: the move count %d is past 2^31-1, "+pastIntNote, n)
	}
	return ""
}

// pastIntNote ends pastInt's reasons.
const pastIntNote = "the most a 32-bit build of tileproof counts (the suite's limit, not the implementation's)"
