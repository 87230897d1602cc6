package main

import (
	"archive/zip"
	"encoding/json"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// attrLink finds a page's links and sources in its HTML.
var attrLink = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

// TestReportArchived: a report's folder zipped and unzipped elsewhere
// (or moved) keeps its links: the report's links to its pages (in the
// rows' data), each page's link back, and the links to the replays inside
// the folder all resolve in the new place; no link is absolute (a replay's
// name is shown as it was given, a path perhaps, but it is no link). A
// replay from outside the folder is linked relatively too, though that
// link leaves the folder (and so the archive).
func TestReportArchived(t *testing.T) {
	base := t.TempDir()
	folder := filepath.Join(base, "audit")
	in := filepath.Join(folder, "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("../../replays/valid/tile-merge-4096.yaml", filepath.Join(in, "high score.yaml"))
	copyFile("../../replays/tampered/illegal-move-inserted.yaml", filepath.Join(in, "bad.yaml"))
	copyFile("../../replays/valid/committed-seed.yaml", filepath.Join(base, "outside.yaml"))
	report := filepath.Join(folder, "r.html")
	code, out, errOut := runCLI(t, "", "verify", "--report", report, in, filepath.Join(base, "outside.yaml"))
	if code != 1 || !strings.Contains(errOut, "wrote") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}

	// Zip the folder, remove it, unzip it elsewhere.
	var zipped strings.Builder
	zw := zip.NewWriter(&zipped)
	err := filepath.WalkDir(folder, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(folder, p)
		w, err := zw.Create(filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, l := range attrLink.FindAllSubmatch(b, -1) {
			if u, err := url.Parse(string(l[1])); err != nil || u.Scheme != "" || strings.HasPrefix(u.Path, "/") {
				t.Errorf("%s links to %q: not a relative link", rel, l[1])
			}
		}
		_, err = w.Write(b)
		return err
	})
	if err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(folder); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(t.TempDir(), "somewhere", "else")
	zr, err := zip.NewReader(strings.NewReader(zipped.String()), int64(zipped.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		to := filepath.Join(moved, filepath.FromSlash(f.Name))
		os.MkdirAll(filepath.Dir(to), 0o755)
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// resolves says where a link of the page at (relative to moved) goes.
	resolves := func(page, link string) (string, bool) {
		u, err := url.Parse(link)
		if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/") {
			t.Errorf("%s links to %q: not a relative link", page, link)
			return "", false
		}
		if u.Path == "" {
			return "", false // a link within the page
		}
		target := path.Join(path.Dir(page), u.Path)
		_, err = os.Stat(filepath.Join(moved, filepath.FromSlash(target)))
		return target, err == nil && !strings.HasPrefix(target, "../")
	}
	html, err := os.ReadFile(filepath.Join(moved, "r.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="tp-rows">(.*?)</script>`).FindSubmatch(html)
	if m == nil {
		t.Fatal("no rows in the report")
	}
	var rows struct {
		Pre  string  `json:"pre"`
		Rows [][]any `json:"rows"`
	}
	if err := json.Unmarshal(m[1], &rows); err != nil {
		t.Fatal(err)
	}
	pages, files := 0, 0
	for _, r := range rows.Rows {
		name, _ := r[1].(string)
		if p, ok := r[9].(string); ok && p != "" {
			var esc []string
			for _, part := range strings.Split(p, "/") {
				esc = append(esc, url.PathEscape(part))
			}
			link := rows.Pre + strings.Join(esc, "/") + ".html"
			target, ok := resolves("r.html", link)
			if !ok {
				t.Errorf("%s: the link to its page %q does not resolve once the folder is moved", name, link)
				continue
			}
			pages++
			page, _ := os.ReadFile(filepath.Join(moved, filepath.FromSlash(target)))
			for _, back := range regexp.MustCompile(`<a id="(?:back|prev-sub|next-sub)" href="([^"]*)"`).FindAllSubmatch(page, -1) {
				if to, ok := resolves(target, string(back[1])); !ok || to != "r.html" {
					t.Errorf("%s: the page's link %q goes to %q, not the report", name, back[1], to)
				}
			}
		}
		if f, ok := r[10].(string); ok && strings.Contains(name, string(filepath.Separator)+"in"+string(filepath.Separator)) {
			if _, ok := resolves("r.html", f); !ok {
				t.Errorf("%s: the link to its file %q does not resolve once the folder is moved", name, f)
			}
			files++
		} else if ok {
			resolves("r.html", f) // relative all the same
		}
	}
	if pages != 3 || files != 2 {
		t.Errorf("%d pages and %d files inside the folder checked, want 3 and 2", pages, files)
	}
}
