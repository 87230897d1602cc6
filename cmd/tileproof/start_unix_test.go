//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// helloWorld is the baseline of BenchmarkProcessStart: the least a Go
// program costs to start.
const helloWorld = `package main

import "os"

func main() { os.Stdout.WriteString("hi\n") }
`

// BenchmarkProcessStart runs "tileproof line 2 2" as a process, beside a
// Go hello-world built the same way: a start as a shell pays it (the
// binary mapped, the runtime started, every package's init, the command
// line), which BenchmarkStart, in-process, leaves out. Besides the time
// it reports the minor page faults of a run (faults/op), most of a
// start's cost on a virtual machine, and steadier than the time.
func BenchmarkProcessStart(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte(helloWorld), 0o644); err != nil {
		b.Fatal(err)
	}
	goBuild(b, dir, "hello", src)
	goBuild(b, dir, "tileproof", ".")
	for _, run := range []struct {
		name string
		args []string
	}{
		{"hello", nil},
		{"tileproof", []string{"line", "2", "2"}},
	} {
		b.Run(run.name, func(b *testing.B) {
			var faults int64
			for b.Loop() {
				cmd := exec.Command(filepath.Join(dir, run.name), run.args...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", run.name, err, out)
				}
				faults += int64(cmd.ProcessState.SysUsage().(*syscall.Rusage).Minflt) // int32 on 386
			}
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
		})
	}
}
