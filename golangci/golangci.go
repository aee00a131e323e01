// Package golangci registers goadvise as a golangci-lint v2 module plugin,
// so that its analyzers run inside golangci-lint (built with
// "golangci-lint custom"). See docs/ci.md for the .custom-gcl.yml and
// .golangci.yml snippets.
package golangci

import (
	"context"
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/pgo"
)

// Name is the linter name under which golangci-lint reports goadvise's
// findings (and the name to use in //nolint:goadvise).
const Name = "goadvise"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings in .golangci.yml
// (linters.settings.custom.goadvise.settings).
type Settings struct {
	Enable  []string `json:"enable"`  // analyzers to run (default all)
	Disable []string `json:"disable"` // analyzers not to run
	Profile string   `json:"profile"` // CPU profiles (comma-separated) that decide hotness
	Cold    bool     `json:"cold"`    // also report findings in cold code
	// All reports every finding of each package, not only the highest
	// ranked (at most 3 per 1,000 lines per analyzer; hotpath's -all).
	All bool `json:"all"`
	// Inherent and Negligible are older names of All, which they set.
	Inherent   bool `json:"inherent"`
	Negligible bool `json:"negligible"`
}

type plugin struct {
	settings Settings
}

// New returns the plugin for the given settings.
func New(conf any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		return nil, fmt.Errorf("goadvise plugin settings: %w", err)
	}
	return &plugin{settings: s}, nil
}

// BuildAnalyzers returns the selected analyzers of the suite, configured
// by the settings: the profiles that decide hotness, read now, and which
// findings to report.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	as, err := suite.Select(p.settings.Enable, p.settings.Disable)
	if err != nil {
		return nil, fmt.Errorf("goadvise plugin: %w", err)
	}
	opts := suite.Options{Visibility: suite.Visibility{
		Cold: p.settings.Cold,
		All:  p.settings.All || p.settings.Inherent || p.settings.Negligible,
	}}
	if prof := strings.TrimSpace(p.settings.Profile); prof != "" {
		opts.Profile, err = pgo.LoadHotness(context.Background(), strings.Split(prof, ","), pgo.LoadOptions{})
		if err != nil {
			return nil, fmt.Errorf("goadvise plugin: profile: %w", err)
		}
	}
	return suite.Configure(as, opts), nil
}

// GetLoadMode says that the analyzers need type information.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
