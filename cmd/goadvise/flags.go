package main

import (
	"flag"
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/config"
	"github.com/goadvise/goadvise/internal/cli"
	"github.com/goadvise/goadvise/report"
	"github.com/goadvise/goadvise/wholeprog"
)

// commandUsage returns the usage of a registered command.
func commandUsage(name string) cli.Usage {
	c := commands[name]
	return cli.Usage{Name: name, Line: c.usage, Long: c.long}
}

// applyConfig reads the configuration file of the module the current
// directory is in (see package config) and sets from it the flags of fs
// that the command line did not set. analyzers are those whose flags fs
// has.
func applyConfig(fs *flag.FlagSet, analyzers []*analysis.Analyzer) (*config.Config, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	conf, err := config.Load(moduleRoot(dir))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, a := range analyzers {
		names = append(names, a.Name)
	}
	for _, p := range wholeprog.Passes() {
		names = append(names, p.Name)
	}
	return conf, conf.Apply(fs, names)
}

// printConfig prints check's effective configuration, from the file and
// the command line, for check -config.
func printConfig(fs *flag.FlagSet, analyzers []*analysis.Analyzer, cf checkFlags) int {
	dir, err := os.Getwd()
	if err == nil {
		var names []string
		for _, a := range analyzers {
			names = append(names, a.Name)
		}
		e := cf.conf.Effective(fs, names, moduleRoot(dir))
		for _, t := range config.Tiers() {
			e.SARIFLevels[t] = report.SARIFOptions{Levels: cf.levels()}.Level(t)
		}
		err = e.Write(os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goadvise: %v\n", err)
		return exitError
	}
	return exitOK
}
