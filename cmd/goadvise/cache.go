package main

import (
	"fmt"
	"os"

	"github.com/goadvise/goadvise/escape"
)

func init() {
	register(&command{
		name:  "cache",
		usage: "cache clean|dir",
		short: "manage goadvise's cache of compiler decisions and findings",
		long: `The cache holds the compiler's escape and inlining decisions per package,
and the findings of each package, keyed by the package's content, its
dependencies, the Go version, GOOS/GOARCH, goadvise itself and the analyzers'
flags, so that re-running goadvise on an unchanged tree is cheap and a change
recomputes only the packages it can affect. GOADVISE_NOCACHE=1 bypasses the
findings cache.

It lives in os.UserCacheDir()/goadvise; GOADVISE_CACHE overrides the location.

	goadvise cache dir     print the cache directory
	goadvise cache clean   remove everything in the cache`,
		run: runCache,
	})
}

func runCache(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "goadvise cache: usage: goadvise cache clean|dir")
		return exitError
	}
	switch args[0] {
	case "dir":
		dir, err := escape.CacheDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "goadvise cache: %v\n", err)
			return exitError
		}
		fmt.Println(dir)
		return exitOK
	case "clean":
		if err := escape.CleanCache(); err != nil {
			fmt.Fprintf(os.Stderr, "goadvise cache: %v\n", err)
			return exitError
		}
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "goadvise cache: unknown subcommand %q (want clean or dir)\n", args[0])
	return exitError
}
