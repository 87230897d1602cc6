package main

import (
	"fmt"

	"github.com/tileproof/tileproof/replay/batchfiles"
)

// notAnInput refuses an output path, given with flag, that names a file
// the command reads, under any name or link (os.SameFile): writing it
// would replace the input (show --html REPLAY -o REPLAY made the replay a
// page). An output that does not exist yet is no input; a profile name
// that is not a file is none either. verify --report's check (htmlview)
// asks batchfiles.SameAsInput too, and also refuses a replay file inside
// an input directory.
func notAnInput(flag, out string, inputs ...string) error {
	if in := batchfiles.SameAsInput(out, inputs); in != "" {
		return fmt.Errorf("%s %s is the input %s: writing it would replace it; name another file", flag, out, in)
	}
	return nil
}
