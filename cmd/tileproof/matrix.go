package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/tileproof/tileproof/conformance"
)

func (c *cli) matrix(args []string) int {
	fs := c.flags("matrix")
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return c.fail(exitBadUsage, "matrix: give the JSON reports of tileproof conform --json")
	}
	var reports []*conformance.Report
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err != nil {
			return c.fail(exitBadUsage, "matrix: %v", err)
		}
		r, err := conformance.ReadReport(bytes.NewReader(data))
		if err != nil {
			return c.fail(exitBadUsage, "matrix: %s: %v", name, err)
		}
		reports = append(reports, r)
	}
	var out bytes.Buffer
	if err := conformance.WriteMatrix(&out, reports); err != nil {
		return c.fail(exitBadUsage, "matrix: %v", err)
	}
	fmt.Fprint(c.stdout, out.String())
	return exitOK
}
