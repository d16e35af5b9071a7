package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Manifest describes a sweep's output (manifest.json) or one shard's
// (manifest-i-of-n.json). It has no timestamps or host names: the merge of
// all shards is byte-identical to the unsharded sweep's.
type Manifest struct {
	Sweep       string `json:"sweep"`
	Description string `json:"description,omitempty"`
	// Fingerprint hashes every cell id in order; shards of one sweep share it.
	Fingerprint string       `json:"fingerprint"`
	Grid        []string     `json:"grid"`
	Schedulers  []string     `json:"schedulers"`
	Seeds       []uint64     `json:"seeds"`
	Metrics     []string     `json:"metrics"`
	Report      ReportHints  `json:"report"`
	CellsTotal  int          `json:"cells_total"`
	Shard       *Shard       `json:"shard,omitempty"`
	Table       string       `json:"table"`      // the CSV table (its Parquet twin has the same stem)
	CellsFile   string       `json:"cells_file"` // the JSON lines with each cell's configuration
	Cells       []CellStatus `json:"cells"`
}

// CellStatus is one cell's outcome.
type CellStatus struct {
	Index     int    `json:"index"`
	ID        string `json:"id"`
	Scheduler string `json:"scheduler"`
	Status    string `json:"status"` // ok | failed
	Error     string `json:"error,omitempty"`
}

// Failed lists the cells that failed.
func (m *Manifest) Failed() []CellStatus {
	var out []CellStatus
	for _, c := range m.Cells {
		if c.Status != "ok" {
			out = append(out, c)
		}
	}
	return out
}

func (m *Manifest) encode() ([]byte, error) {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// ReadManifest reads dir/manifest.json.
func ReadManifest(dir string) (*Manifest, error) {
	return readManifestFile(filepath.Join(dir, "manifest.json"))
}

func readManifestFile(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

func fingerprint(cells []Cell) string {
	h := sha256.New()
	for _, c := range cells {
		h.Write([]byte(c.ID))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// cellLine is one line of cells.jsonl: a cell's full configuration.
type cellLine struct {
	Index     int               `json:"index"`
	ID        string            `json:"id"`
	Params    map[string]string `json:"params"`
	Scheduler string            `json:"scheduler"`
	Seed      uint64            `json:"seed"`
	Scenario  map[string]any    `json:"scenario"`
}

func cellsJSONL(sw *Sweep, cells []Cell) ([]byte, error) {
	var b bytes.Buffer
	for _, c := range cells {
		params := map[string]string{}
		for k, ax := range sw.Grid {
			params[ax.Key] = c.Params[k]
		}
		line, err := json.Marshal(cellLine{Index: c.Index, ID: c.ID, Params: params, Scheduler: c.Scheduler, Seed: c.Seed, Scenario: jsonSafe(c.Doc).(map[string]any)})
		if err != nil {
			return nil, fmt.Errorf("cell %s: %w", c.ID, err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
