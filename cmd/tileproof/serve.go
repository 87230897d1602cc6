package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/safetext"
	"github.com/tileproof/tileproof/server"
)

// maxKeyFileSize bounds the key file read.
const maxKeyFileSize = 64 << 10

type serveFlags struct {
	addr, keyFile, profiles string
	forced                  bool
	window                  int
}

func (c *cli) serveCommand() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [flags]",
		Short: "serve the games over HTTP in the tile-merge API shape (docs/api.md)",
		Long: `Serve the games over HTTP in the tile-merge API shape (docs/api.md): a reference server
that conform --impl http://HOST:PORT can check. With a key (--key-file, or TILEPROOF_KEY),
the states are signed so that a client cannot forge one; the key must be at least 32
bytes (head -c 32 /dev/urandom | base64 > key makes one). Without either, the states are
unsigned.`,
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8048", "the `HOST:PORT` to listen on (loopback by default)")
	fl.StringVar(&f.keyFile, "key-file", "", "sign the states with the key in `FILE` (white space around it trimmed; 32 bytes or more); default: TILEPROOF_KEY, else unsigned")
	// The default is worked out when serve runs: the built-in names are
	// read from the profiles' files, too slow for every start.
	fl.StringVar(&f.profiles, "profiles", "", "the games to serve: profile `NAMES` or files, comma-separated (default: every built-in profile; signed, those whose seeded games spawn by tp1)")
	fl.BoolVar(&f.forced, "forced-spawns", false, "let an action force the next spawn (for testing, unsigned only: a player could cheat with it)")
	numFlag(fl, &f.window, "window", server.DefaultWindow, "signed: at most `N` games stay live at once, each playing its own states once (12 bytes a game); a game over, or idle an hour, gives its place to a new one, and with none idle init is refused (503)")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.serve(&f, args) })
	return cmd
}

func (c *cli) serve(f *serveFlags, args []string) int {
	if len(args) > 0 {
		return c.fail(exitBadUsage, "serve: unexpected argument %q", args[0])
	}
	key, err := signingKey(f.keyFile, os.LookupEnv)
	if err != nil {
		return c.fail(exitBadUsage, "serve: %v", err)
	}
	if f.forced && len(key) > 0 {
		return c.fail(exitBadUsage, "serve: --forced-spawns and a signing key: a signed server takes no forced spawn (it would let a player choose the tiles); give one or the other")
	}
	if f.profiles == "" {
		// Signed, the built-in profiles whose games replay seeded
		// (server.NewWith refuses the others).
		var names []string
		for _, name := range engine.BuiltinNames() {
			if p, _ := engine.BuiltinProfile(name); len(key) == 0 || server.SeededReplays(p) {
				names = append(names, name)
			}
		}
		f.profiles = strings.Join(names, ",")
	}
	var ps []*engine.Profile
	var served []string // the games' names, which a client asks for, and the file of each from one
	for _, name := range strings.Split(f.profiles, ",") {
		name = strings.TrimSpace(name)
		p, err := loadProfile(name)
		if err != nil {
			return c.fail(exitBadUsage, "serve: %v", err)
		}
		ps = append(ps, p)
		if p.Name == name {
			served = append(served, name)
		} else {
			served = append(served, fmt.Sprintf("%s (from %s)", p.Name, name))
		}
	}
	srv, err := server.NewWith(ps, server.Options{Key: key, Window: f.window})
	if err != nil {
		return c.fail(exitBadUsage, "serve: %v", err)
	}
	srv.ForcedSpawns = f.forced
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return c.fail(exitBadUsage, "serve: %v", err)
	}
	signed := "unsigned states: give --key-file to sign them"
	if len(key) > 0 {
		signed = fmt.Sprintf("signed states, each playable once; a record of %d bytes", srv.RecordSize())
	}
	fmt.Fprintf(c.stderr, "tileproof: serving %s on http://%s (%s)\n", safetext.Terminal(strings.Join(served, ", ")), ln.Addr(), signed)
	// Requests are small (a state of at most 64 KiB, in the body): 16 KiB
	// of headers is plenty, where the default is 1 MiB.
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, MaxHeaderBytes: 16 << 10}
	if err := hs.Serve(ln); err != nil {
		return c.fail(exitFailed, "serve: %v", err)
	}
	return exitOK
}

// signingKey returns the key the states are signed with: the key file's
// content with the white space around it trimmed, else TILEPROOF_KEY as
// it is, else none (nil: unsigned). A key that is given but shorter than
// [server.MinKeySize] is an error, so that an empty or truncated key file never
// starts a server that signs nothing or signs weakly.
func signingKey(keyFile string, lookupEnv func(string) (string, bool)) ([]byte, error) {
	var key []byte
	var from string
	switch env, set := lookupEnv("TILEPROOF_KEY"); {
	case keyFile != "":
		k, err := readKeyFile(keyFile)
		if err != nil {
			return nil, fmt.Errorf("--key-file: %v", err)
		}
		key, from = k, "--key-file "+keyFile
	case set:
		key, from = []byte(strings.TrimSpace(env)), "TILEPROOF_KEY" // as a key file is read
	default:
		return nil, nil
	}
	if len(key) < server.MinKeySize {
		what := fmt.Sprintf("is %d bytes", len(key))
		if len(key) == 0 {
			what = "is empty"
		}
		return nil, fmt.Errorf("%s: the key %s; a signing key needs %d bytes or more (head -c 32 /dev/urandom | base64 makes one), or give none to serve unsigned states", from, what, server.MinKeySize)
	}
	return key, nil
}

// timesKeyFile reads the key of a signed server from the file name of
// --times-key-file (analyze, show, verify), as serve reads --key-file,
// and at least server.MinKeySize bytes; nil for "", none given.
func timesKeyFile(name string) ([]byte, error) {
	if name == "" {
		return nil, nil
	}
	key, err := readKeyFile(name)
	if err == nil && len(key) < server.MinKeySize {
		err = fmt.Errorf("the key is %d bytes; a server's key has %d or more", len(key), server.MinKeySize)
	}
	if err != nil {
		return nil, fmt.Errorf("--times-key-file %s: %v", safetext.Terminal(name), err)
	}
	return key, nil
}

// readKeyFile reads a key file, serve's --key-file and --times-key-file
// alike: any file, a device or a pipe too (--key-file
// <(...)), to a bound, with the white space around the key trimmed.
func readKeyFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFileSize+1))
	if err == nil && len(data) > maxKeyFileSize {
		err = fmt.Errorf("%s: larger than %d bytes", name, maxKeyFileSize)
	}
	return bytes.TrimSpace(data), err
}
