package experiment

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// ModulePath is netsched's Go module path, how RepoRoot recognises a checkout.
const ModulePath = "github.com/netsched/netsched"

// RepoRoot finds the netsched checkout that holds the working directory:
// the nearest directory at or above it whose go.mod declares ModulePath.
// Commands that read or write docs/reproductions need it.
func RepoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+ModulePath+"\n")) {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("%s is not inside a netsched checkout (no go.mod of %s above it); run from the repository to read or update docs/reproductions", wd, ModulePath)
		}
	}
}
