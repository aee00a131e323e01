package decisions

import (
	"context"
	"slices"

	"github.com/goadvise/goadvise/worktree"
)

// A Snapshot is the compiler's decisions for the packages of a directory
// as its files were when [TakeSnapshot] compiled them, to compare with
// another (see [CompareSnapshots]): -verify takes one of its copy of the
// module before a fix and one after.
type Snapshot struct {
	v *version
}

// TakeSnapshot compiles the packages matching patterns in dir, as [Diff]
// compiles a version, and records the compiler's decisions by function.
// env is the go commands' environment (nil: the process's).
func TakeSnapshot(ctx context.Context, dir string, env []string, patterns []string) (*Snapshot, error) {
	// A funcIndex of its own: the files of dir change between snapshots.
	v, err := collectVersion(ctx, dir, dir, env, patterns, newFuncIndex())
	if err != nil {
		return nil, err
	}
	return &Snapshot{v: v}, nil
}

// CompareSnapshots reports how the compiler's decisions changed from base
// to head, as [Diff] does for two revisions. Without a diff to say which
// functions changed, none counts as touched.
func CompareSnapshots(base, head *Snapshot) *DiffReport {
	rep := &DiffReport{Base: "before", Head: "after", PGO: "off", Packages: head.v.pkgs}
	rep.dirs = [2]string{base.v.dir, head.v.dir}
	rep.Errors = append(append(rep.Errors, base.v.errors...), head.v.errors...)
	rep.compare(base.v, head.v, &worktree.Changes{}, nil)
	return rep
}

// RegressionsOutside returns the changes of rep in packages other than
// pkg that make the code worse: a new heap escape, a call no longer
// inlined, a function no longer inlinable (see [DiffReport.GateFailures]).
// A change to pkg's code that costs its importers shows here, where
// pkg's own benchmarks may not see it. An escape whose cause alone
// changed (the same value at the same position, removed and added) is
// no new allocation, and is left out.
func (rep *DiffReport) RegressionsOutside(pkg string) []Regression {
	other := *rep
	other.Funcs = nil
	other.Profile = ""
	for _, f := range rep.Funcs {
		if f.Package == pkg {
			continue
		}
		removed := slices.Clone(f.EscapesRemoved)
		f.EscapesAdded = slices.DeleteFunc(slices.Clone(f.EscapesAdded), func(e Escape) bool {
			i := slices.IndexFunc(removed, func(r Escape) bool { return r.Name == e.Name && r.Pos == e.Pos })
			if i >= 0 {
				removed = slices.Delete(removed, i, i+1)
			}
			return i >= 0
		})
		other.Funcs = append(other.Funcs, f)
	}
	return other.regressions([]string{GateEscapes, GateInline})
}
