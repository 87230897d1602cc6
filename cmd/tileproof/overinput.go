package main

import (
	"fmt"
	"os"
)

// notAnInput refuses an output path, given with flag, that names a file
// the command reads, under any name or link (os.SameFile): writing it
// would replace the input (show --html REPLAY -o REPLAY made the replay a
// page). An output that does not exist yet is no input; a profile name
// that is not a file is none either. verify --report has its own check
// (htmlview), which also refuses a replay file inside an input directory.
func notAnInput(flag, out string, inputs ...string) error {
	oinfo, err := os.Stat(out)
	if err != nil {
		return nil // not there yet: creating it says what else is wrong
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if info, err := os.Stat(in); err == nil && os.SameFile(oinfo, info) {
			return fmt.Errorf("%s %s is the input %s: writing it would replace it; name another file", flag, out, in)
		}
	}
	return nil
}
