package mdblock

import "testing"

func TestReplace(t *testing.T) {
	page := "# P\n\ntext\n\n<!-- b -->\nold\n<!-- e -->\n\nmore\n"
	got, err := Replace("p.md", page, "<!-- b -->", "<!-- e -->", "NEW\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# P\n\ntext\n\n<!-- b -->\n\nNEW\n\n<!-- e -->\n\nmore\n"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if again, _ := Replace("p.md", got, "<!-- b -->", "<!-- e -->", "NEW\n"); again != got {
		t.Error("replacing twice with the same content changes the page")
	}
	for _, bad := range []string{"# none\n", "<!-- e -->\n<!-- b -->\n"} {
		if _, err := Replace("p.md", bad, "<!-- b -->", "<!-- e -->", "x"); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}
