package main

import (
	"fmt"
	"runtime"

	"github.com/goadvise/goadvise/internal/cli"
)

func init() {
	register(&command{
		name:  "version",
		usage: "version",
		short: "print goadvise's version and the Go toolchain it was built with",
		run: func(args []string) int {
			fmt.Printf("goadvise %s (%s %s/%s)\n", cli.Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return exitOK
		},
	})
}
