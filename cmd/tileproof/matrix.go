package main

import (
	"bytes"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// maxReportSize bounds a conformance report read by matrix: a report of
// the whole pack is about a megabyte.
const maxReportSize = 256 << 20

func (c *cli) matrixCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "matrix REPORT.json...",
		Short: "print conformance reports as one Markdown matrix: implementations by case area",
		Long: `Print conformance reports (the JSON of tileproof conform --json) as one Markdown matrix:
an implementation a row, a case area a column, the cases passed or failed in each
(docs/results.md is made so).`,
	}
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.matrix(args) })
	return cmd
}

func (c *cli) matrix(args []string) int {
	if len(args) == 0 {
		return c.fail(exitBadUsage, "matrix: give the JSON reports of tileproof conform --json")
	}
	var reports []*conformance.Report
	for _, name := range args {
		r, err := readReportFile(name)
		if err != nil {
			return c.fail(exitBadUsage, "matrix: %v", err)
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

// readReportFile reads a conformance report (conform --json) from a file.
func readReportFile(name string) (*conformance.Report, error) {
	data, err := batchfiles.ReadRegular(name, maxReportSize)
	if err != nil {
		return nil, err
	}
	r, err := conformance.ReadReport(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return r, nil
}
