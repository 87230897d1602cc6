package main

import (
	"bytes"
	"os"

	"github.com/tileproof/tileproof/conformance"
	"github.com/tileproof/tileproof/htmlview"
)

// writeConformHTML writes the page of a conformance run's failures to
// file (conform --html).
func writeConformHTML(rep *conformance.Report, file string) error {
	var page bytes.Buffer
	if err := htmlview.Conformance(&page, rep); err != nil {
		return err
	}
	return os.WriteFile(file, page.Bytes(), 0o644)
}
