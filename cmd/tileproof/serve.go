package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/server"
)

func (c *cli) serve(args []string) int {
	fs := c.flags("serve")
	addr := fs.String("addr", "127.0.0.1:8048", "the address to listen on (loopback by default)")
	keyFile := fs.String("key-file", "", "sign the states with the key in this file (or set TILEPROOF_KEY); unsigned without one")
	profiles := fs.String("profiles", strings.Join(engine.BuiltinNames(), ","), "the games to serve: profile names or files, comma-separated")
	forced := fs.Bool("forced-spawns", false, "let an action force the next spawn (for testing; a player could cheat with it)")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	key := []byte(os.Getenv("TILEPROOF_KEY"))
	if *keyFile != "" {
		data, err := os.ReadFile(*keyFile)
		if err != nil {
			return c.fail(exitBadUsage, "serve: %v", err)
		}
		key = []byte(strings.TrimSpace(string(data)))
	}
	var ps []*engine.Profile
	for _, name := range strings.Split(*profiles, ",") {
		p, err := loadProfile(strings.TrimSpace(name))
		if err != nil {
			return c.fail(exitBadUsage, "serve: %v", err)
		}
		ps = append(ps, p)
	}
	srv, err := server.New(ps, key)
	if err != nil {
		return c.fail(exitBadUsage, "serve: %v", err)
	}
	srv.ForcedSpawns = *forced
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return c.fail(exitBadUsage, "serve: %v", err)
	}
	signed := "unsigned states"
	if len(key) > 0 {
		signed = "signed states"
	}
	fmt.Fprintf(c.stderr, "tileproof: serving %s on http://%s (%s)\n", *profiles, ln.Addr(), signed)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second}
	if err := hs.Serve(ln); err != nil {
		return c.fail(exitFailed, "serve: %v", err)
	}
	return exitOK
}
