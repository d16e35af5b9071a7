package experiment

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// ReadCells decodes a sweep's cells.jsonl into T, one value per line: the
// figure tools (cmd/nasfig, cmd/cssfig, cmd/dawnfig) declare the fields
// they need. Errors name the file and line.
func ReadCells[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for n := 1; sc.Scan(); n++ {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}
