// Package cases embeds the conformance case pack of this folder (see
// docs/case-format.md), so that tileproof runs it from anywhere. The cases
// are data: add a YAML file here and it is part of the pack.
package cases

import "embed"

// FS holds pack.yaml and every case file.
//
//go:embed pack.yaml */*.yaml
var FS embed.FS
