package main

import (
	"cmp"
	"fmt"
	"os"

	"github.com/goadvise/goadvise/internal/cache"
	"github.com/goadvise/goadvise/load"
)

func init() {
	register(&command{
		name:  "cache",
		usage: "cache clean|dir",
		short: "manage goadvise's cache of compiler decisions and findings",
		long: `The cache holds the compiler's escape and inlining decisions per package,
the findings of each package, and the benchmark profiles check -bench
measured, keyed by the package's content, its
dependencies, the Go version, GOOS/GOARCH, goadvise itself and the analyzers'
flags, so that re-running goadvise on an unchanged tree is cheap and a change
recomputes only the packages it can affect. GOADVISE_NOCACHE=1 bypasses the
findings and benchmark caches.

It lives in os.UserCacheDir()/goadvise; GOADVISE_CACHE overrides the location.
Every entry is checked when read; a damaged one is recomputed.

	goadvise cache dir     print the cache directory
	goadvise cache clean   remove the cache: only what goadvise wrote there (it
	                       refuses a directory without goadvise's CACHEDIR.TAG)`,
		run: runCache,
	})
}

func runCache(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		c := commands["cache"]
		fmt.Printf("usage: goadvise %s\n\n%s\n", c.usage, c.long)
		return exitOK
	}
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "goadvise cache: usage: goadvise cache clean|dir")
		return exitError
	}
	switch args[0] {
	case "dir":
		dir, err := cache.Dir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise cache: %v\n", err)
			return exitError
		}
		fmt.Println(dir)
		return exitOK
	case "clean":
		if err := cache.Clean(); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise cache: %v\n", err)
			return exitError
		}
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "goadvise cache: unknown subcommand %q (want clean or dir)\n", args[0])
	return exitError
}

// moduleRoot returns the directory of the go.work file above dir, or else
// of the nearest go.mod file, or else dir.
func moduleRoot(dir string) string {
	module, workspace := load.Roots(dir)
	return cmp.Or(workspace, module, dir)
}
