package load

import (
	"bytes"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// renameMark is the character that stands for each separator in the names
// under which goadvise's build with the optimization log compiles files
// (see optlog's renamed): /dir/sub/f.go is compiled as ~dir~sub~f.go,
// a name of the same length, so that no two files share a log file.
const renameMark = '~'

// packageDir returns the directory of p's files, or "".
func packageDir(p *packages.Package) string {
	for _, f := range p.GoFiles {
		return filepath.Dir(f)
	}
	for _, f := range p.CompiledGoFiles {
		return filepath.Dir(f)
	}
	return ""
}

// restoreRenamed gives the file names in export data written by a compile
// that renamed its files back their names, in place: a position in the
// export data then names the file it is in, as a position in a package
// loaded from source does. dirs are the directories of the packages whose
// files the data may name (the package and its dependencies, whose
// declarations it may copy). A renamed name is recognized by its
// directory: the mark, then a directory of dirs with each separator
// replaced by the mark, then the mark (file names holding the mark are
// never renamed). A string constant that spelled such a name would be
// restored too; it would take a constant naming a dependency's directory
// in that renamed form.
func restoreRenamed(data []byte, dirs map[string]bool) {
	if filepath.Separator != '/' {
		return
	}
	// Every renamed name starts with the mark and the first element of
	// its directory, such as "~home~" or "~usr~".
	starts := make(map[string]bool)
	renamedDirs := make(map[string]bool, len(dirs))
	longest := 0
	for d := range dirs {
		if len(d) < 2 || d[0] != '/' {
			continue
		}
		first, _, _ := strings.Cut(d[1:], "/")
		starts[string(renameMark)+first+string(renameMark)] = true
		renamedDirs[strings.ReplaceAll(d, "/", string(renameMark))] = true
		longest = max(longest, len(d))
	}
	for start := range starts {
		s := []byte(start)
		for i := 0; ; {
			j := bytes.Index(data[i:], s)
			if j < 0 {
				break
			}
			i += j
			i += restoreAt(data[i:], renamedDirs, longest)
		}
	}
}

// restoreAt restores the renamed name at the start of b, if its directory
// is one of renamedDirs (directories renamed, at most longest bytes), and
// returns how many bytes to skip (at least one).
func restoreAt(b []byte, renamedDirs map[string]bool, longest int) int {
	// The name's directory ends at one of the marks before the first
	// byte that cannot be part of it: try the longest first.
	end := 0
	for end < len(b) && end <= longest && b[end] >= ' ' && b[end] != '/' {
		end++
	}
	for k := end - 1; k > 0; k-- {
		if b[k] != renameMark || !renamedDirs[string(b[:k])] {
			continue
		}
		for m := range k + 1 {
			if b[m] == renameMark {
				b[m] = '/'
			}
		}
		return k + 1
	}
	return 1
}
