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
		long:  helpText("cache"),
		run:   runCache,
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
