// Package golist describes packages as "go list -json" prints them and
// keys them by content, for goadvise's caches: a key changes when a file of
// the package or of one of its dependencies changes.
package golist

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// A Package is the part of go list's description of a package that
// goadvise uses.
type Package struct {
	ImportPath   string
	Dir          string
	Name         string
	GoFiles      []string
	CgoFiles     []string
	EmbedFiles   []string
	TestGoFiles  []string
	XTestGoFiles []string
	Deps         []string
	ForTest      string
	Standard     bool
	DepOnly      bool
	Module       *Module
	Error        *struct{ Err string }
}

// A Module is the module a package belongs to.
type Module struct {
	Path    string
	Version string
	Main    bool
	Dir     string
	Replace *struct{ Path, Version string }
}

// HashFiles writes the name and content hash of every file of the lists
// (names relative to dir) to h. It reports false if a file cannot be read.
func HashFiles(h io.Writer, dir string, lists ...[]string) bool {
	ok := true
	for _, list := range lists {
		for _, f := range list {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				fmt.Fprintf(h, "file %s unreadable\n", f)
				ok = false
				continue
			}
			fmt.Fprintf(h, "file %s %x\n", f, sha256.Sum256(data))
		}
	}
	return ok
}

// Keys identifies the content of the dependencies of a set of listed
// packages, computing each once.
type Keys struct {
	pkgs map[string]*Package
	memo map[string]string
}

// NewKeys returns Keys over packages listed by import path.
func NewKeys(pkgs map[string]*Package) *Keys {
	return &Keys{pkgs: pkgs, memo: make(map[string]string)}
}

// Dep returns the key of the dependency with the given import path:
// "std" for the standard library (which the Go version fixes: callers key
// that separately), "mod PATH@VERSION" for a dependency from a module
// version, and a hash of its files otherwise (the main module, local
// replacements). A test variant "q [p.test]" has the files of q. It
// returns "" if a file cannot be read, and "missing" for an unlisted path.
func (k *Keys) Dep(path string) string {
	if key, ok := k.memo[path]; ok {
		return key
	}
	base, _, _ := strings.Cut(path, " [")
	p := k.pkgs[base]
	var key string
	switch {
	case p == nil:
		key = "missing"
	case p.Standard:
		key = "std"
	case p.Module != nil && p.Module.Version != "" && (p.Module.Replace == nil || p.Module.Replace.Version != ""):
		key = "mod " + p.Module.Path + "@" + p.Module.Version
		if r := p.Module.Replace; r != nil {
			key += " => " + r.Path + "@" + r.Version
		}
	default:
		h := sha256.New()
		if HashFiles(h, p.Dir, p.GoFiles, p.CgoFiles, p.EmbedFiles) {
			key = hex.EncodeToString(h.Sum(nil))
		}
	}
	k.memo[path] = key
	return key
}
