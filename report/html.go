package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"math"
	"strings"
)

// page is what the HTML template shows.
type page struct {
	Title, Description, Meta string
	Baseline                 string
	Focus                    string
	CompareHead              []string
	Compare                  [][]string
	Failed                   [][]string
	Figures                  []pageFigure
	Skipped                  []string
	PointsHead               []string
	Points                   [][]string
	PointsCut                int
}

type pageFigure struct {
	Name, Title, Caption string
	Src                  template.URL
	Width                int // CSS pixels: the figure's size at 96 per inch, whatever the PNG's DPI
}

// maxPointRows bounds the "all results" table; the CSV has everything.
const maxPointRows = 400

var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
td.err { text-align: left; font-family: monospace; white-space: pre-wrap; }
figure { margin: 2em 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { color: #444; max-width: 60em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{if .Description}}<p>{{.Description}}</p>{{end}}
<p class="meta">{{.Meta}}</p>

<h2 id="comparison">Comparison</h2>
<p>Mean over seeds{{if .Focus}} at {{.Focus}}{{end}}; in parentheses, divided by the baseline <b>{{.Baseline}}</b>.</p>
<table>
<tr>{{range .CompareHead}}<th>{{.}}</th>{{end}}</tr>
{{range .Compare}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .Failed}}
<h2 id="failed">Failed cells</h2>
<table>
<tr><th>cell</th><th>scheduler</th><th>parameters</th><th>seed</th><th>error</th></tr>
{{range .Failed}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td><td>{{index . 2}}</td><td>{{index . 3}}</td><td class="err">{{index . 4}}</td></tr>
{{end}}</table>
{{end}}
<h2 id="figures">Figures</h2>
{{range .Figures}}<figure id="fig-{{.Name}}">
<img src="{{.Src}}" alt="{{.Title}}" data-figure="{{.Name}}" width="{{.Width}}">
<figcaption><b>{{.Title}}.</b> {{.Caption}}</figcaption>
</figure>
{{end}}
{{if .Skipped}}<h3>Not drawn</h3>
<ul>{{range .Skipped}}<li>{{.}}</li>{{end}}</ul>
{{end}}
<h2 id="results">All results</h2>
<p>Every grid point and scheduler: mean ± sample standard deviation over seeds. The full table is results.csv / results.parquet.</p>
<table>
<tr>{{range .PointsHead}}<th>{{.}}</th>{{end}}</tr>
{{range .Points}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{if .PointsCut}}<p>{{.PointsCut}} more rows are in results.csv.</p>{{end}}
<script>
// Marks each figure as decoded, for automated checks of the page.
window.addEventListener("load", function () {
  document.querySelectorAll("img[data-figure]").forEach(function (img) {
    img.setAttribute("data-decoded", img.complete && img.naturalWidth > 0 ? "yes" : "no");
  });
});
</script>
</body>
</html>
`))

func dataURI(format string, data []byte) template.URL {
	mime := "image/png"
	if format == "svg" {
		mime = "image/svg+xml"
	}
	return template.URL("data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data))
}

func renderPage(p *page) ([]byte, error) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// compareRows fills the comparison table.
func compareRows(cmp []Comparison, metricNames []string) ([]string, [][]string) {
	head := []string{"scheduler", "runs"}
	for _, m := range metricNames {
		head = append(head, MetricLabel(m))
	}
	var rows [][]string
	for _, c := range cmp {
		row := []string{c.Scheduler, fmt.Sprint(c.Seeds)}
		for k, m := range metricNames {
			row = append(row, fmt.Sprintf("%s (%s)", FormatValue(m, c.Mean[k]), FormatRatio(c.Ratio[k])))
		}
		rows = append(rows, row)
	}
	return head, rows
}

// pointRows aggregates every (grid point, scheduler) over seeds.
func pointRows(r *Results) ([]string, [][]string, int) {
	head := append(append([]string(nil), r.Table.Params...), "scheduler", "runs", "failed")
	for _, m := range r.Metrics {
		head = append(head, MetricLabel(m))
	}
	type group struct {
		params []string
		sched  string
		cells  []*Cell
	}
	var groups []*group
	index := map[string]*group{}
	for i := range r.Cells {
		c := &r.Cells[i]
		key := strings.Join(c.Params, "\x00") + "\x00" + c.Scheduler
		gr, ok := index[key]
		if !ok {
			gr = &group{params: c.Params, sched: c.Scheduler}
			index[key] = gr
			groups = append(groups, gr)
		}
		gr.cells = append(gr.cells, c)
	}
	var rows [][]string
	for _, gr := range groups {
		ok, failed := 0, 0
		for _, c := range gr.cells {
			if c.Error == "" {
				ok++
			} else {
				failed++
			}
		}
		row := make([]string, 0, len(head))
		for _, p := range gr.params {
			if p == "" {
				p = "n/a"
			}
			row = append(row, p)
		}
		row = append(row, gr.sched, fmt.Sprint(ok), fmt.Sprint(failed))
		for _, m := range r.Metrics {
			var xs []float64
			for _, c := range gr.cells {
				if c.Error == "" {
					xs = append(xs, c.Values[m])
				}
			}
			mean, sd, n := meanSD(xs)
			cell := FormatValue(m, mean)
			if n > 1 && !math.IsNaN(sd) {
				cell += " ± " + FormatValue(m, sd)
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	cut := 0
	if len(rows) > maxPointRows {
		cut = len(rows) - maxPointRows
		rows = rows[:maxPointRows]
	}
	return head, rows, cut
}
