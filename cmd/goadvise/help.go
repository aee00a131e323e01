package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/wholeprog"
)

func init() {
	register(&command{
		name:  "help",
		usage: "help [command|analyzer]",
		short: "describe a command or an analyzer",
		run:   runHelp,
	})
}

func runHelp(args []string) int {
	if len(args) == 0 {
		fmt.Print(helpText("goadvise") + "\n\n")
		for _, name := range commandNames() {
			c := commands[name]
			fmt.Printf("\t%-10s %s\n", c.name, c.short)
		}
		fmt.Print("\nAnalyzers:\n\n")
		for _, a := range suite.Analyzers() {
			fmt.Printf("\t%-16s %s\n", a.Name, firstLine(a))
		}
		fmt.Print("\nWhole-program passes (check -whole, or by name in -enable):\n\n")
		for _, p := range wholeprog.Passes() {
			line, _, _ := strings.Cut(p.Doc, "\n")
			_, line, _ = strings.Cut(line, ": ")
			fmt.Printf("\t%-16s %s\n", p.Name, line)
		}
		fmt.Print("\nRun 'goadvise help <command>' or 'goadvise help <analyzer>' for details.\n")
		return exitOK
	}
	name := args[0]
	if c, ok := commands[name]; ok {
		if name == "help" || name == "version" {
			fmt.Printf("usage: goadvise %s\n\n%s\n", c.usage, c.short)
			return exitOK
		}
		// "help pgo merge" is "pgo merge -h".
		return c.run(append(slices.Clone(args[1:]), "-h"))
	}
	for _, a := range append(suite.Analyzers(), suite.Helpers()...) {
		if a.Name == name {
			fmt.Printf("%s\n", a.Doc)
			first := true
			a.Flags.VisitAll(func(f *flag.Flag) {
				if first {
					fmt.Printf("\nFlags (give them as -%s.NAME to check or go vet):\n\n", a.Name)
					first = false
				}
				fmt.Printf("\t-%s.%s=%s\n\t\t%s\n", a.Name, f.Name, f.DefValue, f.Usage)
			})
			return exitOK
		}
	}
	for _, p := range wholeprog.Passes() {
		if p.Name == name {
			fmt.Printf("%s\n", p.Doc)
			return exitOK
		}
	}
	fmt.Fprintf(os.Stderr, "goadvise: no command or analyzer named %q (run 'goadvise help')\n", name)
	return exitError
}

func firstLine(a *analysis.Analyzer) string {
	line, _, _ := strings.Cut(a.Doc, "\n")
	if n, rest, ok := strings.Cut(line, ": "); ok && n == a.Name {
		return rest
	}
	return line
}
