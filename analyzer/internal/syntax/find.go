package syntax

import (
	"go/ast"
	"go/token"
	"slices"
	"sort"

	"golang.org/x/tools/go/ast/inspector"
)

// A Finder finds the nodes of an inspector's files by position, as the
// root cursor's FindByPos and FindNode do, without going through every
// declaration before the one that holds the position: those walk a file
// from its start, so that asking once for each of a file's declarations
// took time quadratic in the file's length (a generated file of ten
// thousand functions took minutes).
type Finder struct {
	root  inspector.Cursor
	files []fileIndex // by FileStart
}

// A fileIndex holds the cursors of one file and of its declarations.
type fileIndex struct {
	start, end token.Pos // FileStart, FileEnd
	cur        inspector.Cursor
	decls      []declIndex // in source order
}

type declIndex struct {
	pos, end token.Pos
	cur      inspector.Cursor
}

// NewFinder indexes the files of in, in time linear in their number of
// declarations.
func NewFinder(in *inspector.Inspector) *Finder {
	x := &Finder{root: in.Root()}
	for fc := range x.root.Children() {
		f, ok := fc.Node().(*ast.File)
		if !ok {
			continue
		}
		fi := fileIndex{start: f.FileStart, end: f.FileEnd, cur: fc}
		for dc := range fc.Children() {
			if d, ok := dc.Node().(ast.Decl); ok {
				fi.decls = append(fi.decls, declIndex{pos: d.Pos(), end: d.End(), cur: dc})
			}
		}
		// The parser gives declarations in source order; anything else
		// is looked up from the file's start.
		if !slices.IsSortedFunc(fi.decls, func(a, b declIndex) int { return int(a.pos - b.pos) }) {
			fi.decls = nil
		}
		x.files = append(x.files, fi)
	}
	slices.SortFunc(x.files, func(a, b fileIndex) int { return int(a.start - b.start) })
	return x
}

// Root returns the root cursor of the inspector.
func (x *Finder) Root() inspector.Cursor { return x.root }

// FindByPos returns what the root cursor's FindByPos(start, end) returns:
// the cursor of the innermost node that contains the range.
func (x *Finder) FindByPos(start, end token.Pos) (inspector.Cursor, bool) {
	i := sort.Search(len(x.files), func(i int) bool { return x.files[i].start > start }) - 1
	if i < 0 || end > x.files[i].end {
		return x.root.FindByPos(start, end)
	}
	fi := &x.files[i]
	// The first declaration that ends at or after end: the one that
	// holds the range if any does (an empty range where two
	// declarations meet is the first's, as FindByPos has it).
	j := sort.Search(len(fi.decls), func(j int) bool { return fi.decls[j].end >= end })
	if j < len(fi.decls) && fi.decls[j].pos <= start {
		return fi.decls[j].cur.FindByPos(start, end)
	}
	// Between declarations, or across them: the file's own nodes (the
	// package clause, its comment) or the file.
	return fi.cur.FindByPos(start, end)
}

// FindNode returns the cursor of n, as the root cursor's FindNode does.
func (x *Finder) FindNode(n ast.Node) (inspector.Cursor, bool) {
	if c, ok := x.FindByPos(n.Pos(), n.End()); ok {
		// The innermost node of n's range is n or a node inside it.
		for ; c.Node() != nil; c = c.Parent() {
			if c.Node() == n {
				return c, true
			}
		}
	}
	return x.root.FindNode(n)
}
