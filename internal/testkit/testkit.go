// Package testkit holds what the tests of several packages share: one
// headless Chromium a test process (a tab a test), the binaries of the
// module's commands built once (the go command's cache shares them
// between the test processes), and the rule that a missing
// tool skips a test unless an environment variable requires it.
// It is imported by tests only.
package testkit

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tileproof/tileproof/internal/safetext"
)

// Root is the module's root directory.
var Root = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}()

// Absent skips t for a missing part, or fails it when the environment
// variable env is "required" (as in CI).
func Absent(t testing.TB, env, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv(env) == "required" {
		t.Fatalf("%s, and %s=required", msg, env)
	}
	t.Skipf("%s (set %s=required to fail instead)", msg, env)
}

// Main runs the tests of m, then ends the shared browser and removes what
// was built into BuildDir, and exits: a package's TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}

// MainAtOnce is Main with n parallel tests at once (-parallel n, not
// GOMAXPROCS) unless the command line sets -parallel: for tests that
// wait, on a browser's frames or on other processes, far more than they
// use a core.
func MainAtOnce(m *testing.M, n int) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
	Main(m)
}

// Close ends the browsers started and removes BuildDir.
func Close() {
	mu.Lock()
	defer mu.Unlock()
	for _, b := range browsers {
		if b.cancel != nil {
			b.cancel()
		}
	}
	browsers = nil
	if buildDir != "" {
		os.RemoveAll(buildDir)
		buildDir = ""
	}
	builds = map[string]*build{}
	kitWasm = build{}
}

var (
	mu       sync.Mutex
	browsers []*Browser
	buildDir string
	builds   = map[string]*build{}
)

// Browser is a headless Chromium shared by the tests of a process, each
// test in a tab of its own. Its zero value is not usable: set the window
// size and the timeout of a tab.
type Browser struct {
	Width, Height int           // the window's size, in CSS pixels
	TabTimeout    time.Duration // the most a tab may be used

	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// ChromiumPath returns the path of a Chromium on PATH, or "".
func ChromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Tab opens a new tab of the browser, starting it the first time; the tab
// is closed when t ends. Without Chromium on PATH the test is skipped, or
// fails under TILEPROOF_BROWSER=required.
func (b *Browser) Tab(t testing.TB) context.Context {
	t.Helper()
	path := ChromiumPath()
	if path == "" {
		Absent(t, "TILEPROOF_BROWSER", "no chromium on PATH")
	}
	b.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(b.Width, b.Height))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(alloc)
		b.ctx, b.cancel = ctx, func() { cancelCtx(); cancelAlloc() }
		mu.Lock()
		browsers = append(browsers, b)
		mu.Unlock()
		b.err = chromedp.Do(ctx) // starts the browser
	})
	if b.err != nil {
		t.Fatalf("starting chromium: %v", b.err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	ctx, cancelTimeout := context.WithTimeout(ctx, b.TabTimeout)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	return ctx
}

// PageErrors keeps the first errors the page of the tab ctx reports
// (uncaught exceptions, console.error, the browser's log: a script that
// failed to load, a 404) and, when t has failed, logs them: a test that
// waited in vain for a page says why the page never got there. The
// listening costs the browser tests of a package a good part of their
// CPU, so it is for the tabs whose pages load scripts of their own.
func PageErrors(t testing.TB, ctx context.Context) {
	var mu sync.Mutex
	var seen []string
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type != chromedp.ConsoleError && !m.IsException() {
				continue
			}
			line := m.String()
			if m.URL != "" {
				line += fmt.Sprintf(" (%s:%d)", m.URL, m.Line)
			}
			if len(line) > 400 {
				line = line[:400] + "..."
			}
			mu.Lock()
			if len(seen) < 20 {
				seen = append(seen, safetext.Terminal(line))
			}
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, line := range seen {
			t.Logf("the page reported %s", line)
		}
	})
}

type build struct {
	once sync.Once
	bin  string
	err  error
}

// Binary returns the path of the main package pkg (a path from the
// module's root, as "./cmd/tileproof") built, once a process; the test
// fails when it does not build. See BuildBinary.
func Binary(t testing.TB, pkg string) string {
	t.Helper()
	bin, err := BuildBinary(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuildBinary is Binary for code without a test at hand. The binary is
// the one go run caches in the Go build cache: it is linked once for all
// the test processes of a run (and again only when a source changes),
// and the build cache, not the test, owns it. Where the go command keeps
// no such binary (the build cache off), it is built into the process's
// BuildDir, which Main removes.
func BuildBinary(pkg string) (string, error) {
	mu.Lock()
	b := builds[pkg]
	if b == nil {
		b = &build{}
		builds[pkg] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		if b.bin, b.err = goBuild(pkg); b.err == nil {
			b.err = openSources(pkg)
		}
	})
	return b.bin, b.err
}

// openSources opens the Go and embedded files of pkg and of the module's
// packages it imports. go test caches a test's result by the files the
// test opens, and a build in a child go command opens none of them in
// the test's process: without this, a change to the adapter alone left
// the tests that run it passing from the cache.
func openSources(pkg string) error {
	const files = `{{if and .Module .Module.Main}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}`
	cmd := exec.Command("go", "list", "-deps", "-f", files, pkg)
	cmd.Dir = Root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list %s: %v", pkg, err)
	}
	for _, name := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f, err := os.Open(name); err == nil {
			f.Close()
		}
	}
	return nil
}

// goBuild builds pkg, see BuildBinary.
func goBuild(pkg string) (string, error) {
	// go run -exec echo prints the binary's path instead of running it.
	// A binary linked by this call is printed from the go command's work
	// folder, removed as it exits, and left in the cache: the second call
	// prints the cached one.
	for range 2 {
		cmd := exec.Command("go", "run", "-exec", "echo", pkg)
		cmd.Dir = Root
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, stderr.String())
		}
		if bin := strings.TrimSpace(string(out)); bin != "" && !strings.Contains(bin, "\n") {
			if _, err := os.Stat(bin); err == nil {
				return bin, nil
			}
		}
	}
	dir, err := BuildDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, strings.ReplaceAll(strings.Trim(filepath.ToSlash(pkg), "./"), "/", "-"))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = Root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}

var kitWasm build

// KitWasm builds the kit's verifier module (js/wasm/build.mjs, what npm
// run build in js/ runs) once a process and returns its path; the test
// fails when it does not build. Main removes it.
func KitWasm(t testing.TB) string {
	t.Helper()
	dir, err := BuildDir()
	if err != nil {
		t.Fatal(err)
	}
	kitWasm.once.Do(func() {
		kitWasm.bin = filepath.Join(dir, "verifier.wasm")
		cmd := exec.Command("node", "build.mjs", kitWasm.bin)
		cmd.Dir = filepath.Join(Root, "js", "wasm")
		if out, err := cmd.CombinedOutput(); err != nil {
			kitWasm.err = fmt.Errorf("node build.mjs: %v\n%s", err, out)
		}
	})
	if kitWasm.err != nil {
		t.Fatal(kitWasm.err)
	}
	return kitWasm.bin
}

// BuildDir returns the temporary directory of the process's builds,
// making it the first time. Main removes it.
func BuildDir() (string, error) {
	mu.Lock()
	defer mu.Unlock()
	if buildDir == "" {
		dir, err := os.MkdirTemp("", "tileproof-testkit-")
		if err != nil {
			return "", err
		}
		buildDir = dir
	}
	return buildDir, nil
}
