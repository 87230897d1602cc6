package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/conformance/driver"
	"github.com/tileproof/tileproof/internal/strictyaml"
)

func (c *cli) conform(args []string) int {
	fs := c.flags("conform")
	implArg := fs.String("impl", "builtin", "the implementation: builtin (the engine), exec:COMMAND (docs/protocol.md) or an http:// URL (the tile-merge API shape)")
	casesDir := fs.String("cases", "", "a case pack folder (default: the pack built into tileproof)")
	profiles := fs.String("profile", "", "run only these profiles (comma-separated; default: all the implementation declares)")
	run := fs.String("run", "", "run only the cases whose AREA/ID matches this regular expression")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	junit := fs.String("junit", "", "also write the report as JUnit XML to this file")
	htmlFile := fs.String("html", "", "also write a page of the failures to this HTML file, each board divergence as three boards side by side")
	strict := fs.Bool("strict", false, "for certification: a skipped case or an unexpected pass also fails the run")
	expectFile := fs.String("expect", "", "a YAML file of known deviations: CASE or CASE@PROFILE: reason")
	baseline := fs.String("baseline", "", "an earlier JSON report: show only regressions and fixes, and fail only on regressions")
	timeout := fs.Duration("timeout", 5*time.Second, "the exec driver's timeout for each request")
	properties := fs.Bool("properties", true, "also run the property checks and the exhaustive line check")
	verbose := fs.Bool("v", false, "also list skipped cases and expected failures")
	ex := exploreFlags(fs)
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return c.fail(exitBadUsage, "conform: unexpected argument %q", fs.Arg(0))
	}
	if exploreRequested(fs) {
		return c.conformExplore(fs, ex, *implArg, *profiles, *timeout)
	}
	pack, err := conformance.LoadPack(packFS(*casesDir))
	if err != nil {
		return c.reportPackErrors(*casesDir, err)
	}
	opts := conformance.Options{Properties: *properties}
	if *profiles != "" {
		opts.Profiles = strings.Split(*profiles, ",")
	}
	if *run != "" {
		if opts.Run, err = regexp.Compile(*run); err != nil {
			return c.fail(exitBadUsage, "conform: --run: %v", err)
		}
	}
	if *expectFile != "" {
		if opts.Expectations, err = readExpectations(*expectFile); err != nil {
			return c.fail(exitBadUsage, "conform: %v", err)
		}
	}
	impl, err := c.openImpl(*implArg, *timeout)
	if err != nil {
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	defer impl.Close()
	rep, err := conformance.Run(pack, impl, opts)
	if err != nil {
		return c.fail(exitBadUsage, "conform: %v", err)
	}
	if *junit != "" {
		f, err := os.Create(*junit)
		if err == nil {
			err = rep.WriteJUnit(f)
			f.Close()
		}
		if err != nil {
			return c.fail(exitBadUsage, "conform: --junit: %v", err)
		}
	}
	if *htmlFile != "" {
		if err := writeConformHTML(rep, *htmlFile); err != nil {
			return c.fail(exitBadUsage, "conform: --html: %v", err)
		}
	}
	if *baseline != "" {
		return c.compareBaseline(rep, *baseline)
	}
	if *asJSON {
		rep.WriteJSON(c.stdout)
	} else {
		rep.WriteText(c.stdout, *verbose)
	}
	failed, xpass := rep.Failures()
	_, total := rep.Summaries()
	switch {
	case len(failed) > 0:
		return exitFailed
	case *strict && (total.Skipped > 0 || len(xpass) > 0):
		fmt.Fprintf(c.stderr, "tileproof: conform: --strict: %d skipped, %d unexpected passes\n", total.Skipped, len(xpass))
		return exitFailed
	}
	return exitOK
}

func (c *cli) openImpl(arg string, timeout time.Duration) (conformance.Impl, error) {
	switch {
	case arg == "builtin":
		return &conformance.Builtin{}, nil
	case strings.HasPrefix(arg, "exec:"):
		return &driver.Exec{Command: strings.TrimPrefix(arg, "exec:"), Timeout: timeout, Stderr: c.stderr}, nil
	case strings.HasPrefix(arg, "http://") || strings.HasPrefix(arg, "https://"):
		return &driver.HTTP{BaseURL: arg, Timeout: timeout}, nil
	}
	return nil, fmt.Errorf("--impl %q: want builtin, exec:COMMAND or an http:// URL", arg)
}

// readExpectations reads a known-deviations file: a YAML map of CASE or
// CASE@PROFILE to the reason the implementation fails it.
func readExpectations(file string) (map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := strictyaml.Decode(file, data, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func (c *cli) compareBaseline(rep *conformance.Report, file string) int {
	f, err := os.Open(file)
	if err != nil {
		return c.fail(exitBadUsage, "conform: --baseline: %v", err)
	}
	defer f.Close()
	base, err := conformance.ReadReport(f)
	if err != nil {
		return c.fail(exitBadUsage, "conform: --baseline %s: %v", file, err)
	}
	regressions, fixes := rep.Compare(base)
	for _, ch := range regressions {
		fmt.Fprintf(c.stdout, "REGRESSION  %s: %s -> %s: %s\n", ch.Key, ch.Before, ch.After, ch.Reason)
	}
	for _, ch := range fixes {
		fmt.Fprintf(c.stdout, "fixed       %s: %s -> %s\n", ch.Key, ch.Before, ch.After)
	}
	fmt.Fprintf(c.stdout, "against %s: %d regressions, %d fixes\n", file, len(regressions), len(fixes))
	if len(regressions) > 0 {
		return exitFailed
	}
	return exitOK
}
