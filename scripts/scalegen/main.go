// Command scalegen writes a module of one large package of many small
// functions, shaped like generated code (message types with constructors,
// getters and small helpers) but not marked generated, for
// scripts/scale.sh. The same flags give the same files.
//
// Usage:
//
//	go run ./scripts/scalegen [-funcs 20000] [-perfile N] -o DIR
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	out := flag.String("o", "", "directory to write the module in")
	funcs := flag.Int("funcs", 20000, "functions in the package")
	perFile := flag.Int("perfile", 0, "functions in each file (0: all in one file, as generated code often is)")
	module := flag.String("module", "example.com/scale", "module path")
	flag.Parse()
	if *out == "" || *funcs < 1 {
		log.Fatal("usage: scalegen [-funcs N] -o DIR")
	}
	for name, content := range moduleFiles(*module, *funcs, *perFile) {
		p := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			log.Fatal(err)
		}
	}
}

// moduleFiles returns the files of a module with path module holding one
// package, big, of n functions, perFile in each file (all in one if
// perFile is 0): slash-separated names relative to the module's
// directory, and their contents. The same arguments give the same files.
func moduleFiles(module string, n, perFile int) map[string]string {
	files := map[string]string{"go.mod": "module " + module + "\n\ngo 1.26\n"}
	if perFile <= 0 {
		perFile = n
	}
	for start := 0; start < n; start += perFile {
		files[fmt.Sprintf("big/f%03d.go", start/perFile)] = file(start, min(start+perFile, n))
	}
	return files
}

// file returns the source of the functions start to end-1.
func file(start, end int) string {
	var b strings.Builder
	// The variables keep the imports used in a file of a few functions.
	b.WriteString("package big\n\nimport (\n\t\"fmt\"\n\t\"strconv\"\n)\n\nvar _ = fmt.Sprint\nvar _ = strconv.Itoa\n")
	for i := start; i < end; i++ {
		fn(&b, i)
	}
	return b.String()
}

// fn writes function i: one of the shapes, in turn, each shape's text
// with %[1]d for its group, %[2]d for the group before and %[3]d for a
// constant of its own. Some allocate, some call the functions of their
// group or of the one before, some loop and branch.
func fn(b *strings.Builder, i int) {
	g := i / len(shapes) // the group, and its type T<g>
	fmt.Fprintf(b, shapes[i%len(shapes)], g, max(g-1, 0), i%97)
}

// shapes are the functions of a group; the first declares its type.
var shapes = [...]string{
	`
type T%[1]d struct {
	ID   int
	Name string
	Vals []int
	Next *T%[2]d
}

func NewT%[1]d(id int, name string) *T%[1]d {
	return &T%[1]d{ID: id, Name: name, Vals: make([]int, 0, 4)}
}
`, `
func (m *T%[1]d) GetID() int {
	if m == nil {
		return 0
	}
	return m.ID
}
`, `
func Count%[1]d(xs []int) int {
	n := 0
	for _, x := range xs {
		if x > %[3]d {
			n++
		} else if x < 0 {
			n--
		}
	}
	return n
}
`, `
func (m *T%[1]d) String() string {
	return m.Name + "(" + strconv.Itoa(m.ID) + ")"
}
`, `
func Sum%[1]d(a *T%[1]d, b *T%[2]d) int {
	return Count%[1]d(a.Vals) + Count%[2]d(b.Vals) + a.GetID() + b.GetID()
}
`, `
func Key%[1]d(ms []*T%[1]d) string {
	var s string
	for _, m := range ms {
		s += m.String() + ";"
	}
	return s
}
`, `
func Kind%[1]d(k int) string {
	switch k %% 3 {
	case 0:
		return "a"
	case 1:
		return "b"
	}
	return fmt.Sprintf("k%%d", k)
}
`, `
func Clone%[1]d(m *T%[1]d) *T%[1]d {
	c := NewT%[1]d(m.ID, Kind%[1]d(m.ID))
	c.Vals = append(c.Vals, m.Vals...)
	return c
}
`,
}
