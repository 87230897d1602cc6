// Command forward is a sequential forwarding process for the exec
// driver's tests: it runs an implementation (the rest of its arguments)
// and, one line at a time, reads a request on its stdin, writes it to the
// implementation, waits for the implementation's answer and copies it to
// its stdout, after --delay more. It is the shape of the simplest adapter
// a user writes in front of a game (one request, one answer, no reading
// ahead), which the runner must never blame for the runner's own queue.
//
// Usage:
//
//	forward [--delay 500us] COMMAND [ARG...]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"
)

func main() {
	delay := flag.Duration("delay", 0, "how long to wait before forwarding each request")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: forward [--delay D] COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	requests := bufio.NewReaderSize(os.Stdin, 1<<20)
	answers := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := requests.ReadBytes('\n')
		if err != nil {
			break
		}
		if *delay > 0 {
			wait(*delay)
		}
		if _, err := in.Write(line); err != nil {
			break
		}
		answer, err := answers.ReadBytes('\n')
		if err != nil {
			break
		}
		if _, err := os.Stdout.Write(answer); err != nil {
			break
		}
	}
	in.Close()
	cmd.Wait()
}

// wait spins for d: a sleep's granularity on a loaded machine is coarser
// than the half millisecond the tests add.
func wait(d time.Duration) {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
	}
}
