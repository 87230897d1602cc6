// Command adapter is tileproof's reference implementation of the exec
// protocol (docs/protocol.md): a plain, independent implementation of the
// five built-in profiles that the conformance runner drives over JSON
// Lines, with a catalogue of deliberately broken variants (mutants) that
// show the suite catches realistic bugs.
//
// Usage:
//
//	adapter [--mutant NAME] [--profiles classic,tile-merge,...] [--features f1,f2,...]
//	adapter --list-mutants
//
// Without --mutant it follows the rules exactly. --profiles and --features
// restrict what hello declares (and what the adapter then accepts), to
// simulate a limited implementation; by default it declares all five
// profiles and every feature, sizes 2x2 to 8x8 included. --list-mutants
// prints the catalogue, one "NAME<tab>what it breaks" a line. The test
// hooks crash-on-move, hang-on-move and garbage-on-legal break the
// protocol instead of the rules, for the runner's failure handling.
//
// Build it from the module root with
//
//	go build -o /tmp/adapter ./conformance/testdata/adapter
//
// and run the suite with tileproof conform --impl exec:/tmp/adapter.
//
// Of tileproof's packages it uses conformance/internal/lineproto only,
// the protocol's side it shares with the 2048.c adapter (the line loop,
// reading a request, the answers): the rules and tp1 are written here
// from the docs, not taken from the engine, so that the mutants can
// break them and so that the engine is checked against an independent
// reading.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tileproof/tileproof/conformance/internal/lineproto"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole program: it returns the exit status, 0 at the end of
// the input, 2 for a usage error, 3 for the crash-on-move hook.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("adapter", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutantName := fs.String("mutant", "", "run the broken variant `NAME` (see --list-mutants) or a test hook")
	profileList := fs.String("profiles", strings.Join(profileOrder, ","), "the profiles hello declares, comma-separated")
	featureList := fs.String("features", strings.Join(allFeatures(), ","), "the features hello declares, comma-separated")
	list := fs.Bool("list-mutants", false, "print the mutant catalogue and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: adapter [--mutant NAME] [--profiles P1,P2] [--features F1,F2]\n       adapter --list-mutants")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "adapter: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *list {
		for _, m := range mutants {
			fmt.Fprintf(stdout, "%s\t%s\n", m.name, m.breaks)
		}
		return 0
	}
	a := &adapter{mutant: *mutantName}
	if a.mutant != "" && !isMutant(a.mutant) {
		fmt.Fprintf(stderr, "adapter: unknown mutant %q (adapter --list-mutants lists them; hooks: crash-on-move, hang-on-move, garbage-on-legal)\n", a.mutant)
		return 2
	}
	var err error
	if a.profiles, err = splitList(*profileList, func(s string) bool { return builtin(s) != nil }); err != nil {
		fmt.Fprintf(stderr, "adapter: --profiles: %v (known: %s)\n", err, strings.Join(profileOrder, ", "))
		return 2
	}
	if a.features, err = splitList(*featureList, func(s string) bool { return slices.Contains(allFeatures(), s) }); err != nil {
		fmt.Fprintf(stderr, "adapter: --features: %v\n", err)
		return 2
	}
	switch err := lineproto.Serve(stdin, stdout, a.handle); err {
	case nil:
		return 0
	case errCrash:
		fmt.Fprintln(stderr, "adapter: crash-on-move: exiting with status 3 on the 5th move request")
		return 3
	case errHang:
		fmt.Fprintln(stderr, "adapter: hang-on-move: no more answers")
		for {
			time.Sleep(time.Hour)
		}
	default:
		fmt.Fprintf(stderr, "adapter: %v\n", err)
		return 1
	}
}

func isMutant(name string) bool {
	return slices.ContainsFunc(slices.Concat(mutants, hooks), func(m mutant) bool { return m.name == name })
}

// splitList reads a comma-separated list of known names; empty items are
// skipped, so "" declares nothing.
func splitList(s string, known func(string) bool) ([]string, error) {
	out := []string{}
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if !known(item) {
			return nil, fmt.Errorf("unknown %q", item)
		}
		if !slices.Contains(out, item) {
			out = append(out, item)
		}
	}
	return out, nil
}
