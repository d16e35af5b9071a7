package report

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chromium runs headless Chromium with flags that keep it off the network
// and out of the user's profile; it returns stdout.
func chromium(t *testing.T, args ...string) []byte {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (Debian package chromium; scripts/install-chromium.sh installs it): skipping the HTML rendering check")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--hide-scrollbars", "--virtual-time-budget=5000"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.Bytes())
	}
	return out
}

// TestReportRendersInChromium opens report.html in headless Chromium and
// checks that the rendered page shows every figure: each <img> decoded
// (the page's script marks it once Chromium has the pixels), with its
// title, and a screenshot that is a real image. The screenshot stays in the
// test's temporary directory.
func TestReportRendersInChromium(t *testing.T) {
	dir := fixture(t)
	r, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Generate(r, Options{Title: "chromium check"})
	if err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.Join(dir, "report.html")
	dom := string(chromium(t, "--dump-dom", page))
	imgs := regexp.MustCompile(`<img [^>]*>`).FindAllString(dom, -1)
	if len(imgs) != len(out.Figures) {
		t.Fatalf("rendered page has %d images, want %d", len(imgs), len(out.Figures))
	}
	for i, f := range out.Figures {
		img := imgs[i]
		for _, want := range []string{`data-figure="` + f.Name + `"`, `data-decoded="yes"`, `src="data:image/svg+xml;base64,`} {
			if !strings.Contains(img, want) {
				t.Errorf("figure %s: rendered <img> lacks %s: %.200s", f.Name, want, img)
			}
		}
		if !strings.Contains(dom, "<b>"+f.Title+".</b>") {
			t.Errorf("figure %s: caption title %q not shown", f.Name, f.Title)
		}
	}
	shot := filepath.Join(t.TempDir(), "report.png")
	chromium(t, "--window-size=1200,2000", "--screenshot="+shot, page)
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 2000 {
		t.Errorf("screenshot is %v", b)
	}
}
