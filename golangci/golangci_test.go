package golangci_test

import (
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	_ "github.com/goadvise/goadvise/golangci"
)

// TestPlugin builds the plugin the way golangci-lint does (by name, with
// settings decoded from YAML-like maps) and runs what it returns: by
// default findings in cold code are not reported (package q), with the
// cold setting they are (package p).
func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("goadvise")
	if err != nil {
		t.Fatal(err)
	}
	def, err := newPlugin(map[string]any{"enable": []any{"deepequal"}})
	if err != nil {
		t.Fatal(err)
	}
	as, err := def.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), as[0], "q")

	p, err := newPlugin(map[string]any{"enable": []any{"deepequal"}, "cold": true})
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	as, err = p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || as[0].Name != "deepequal" {
		t.Fatalf("analyzers = %v, want [deepequal]", as)
	}
	analysistest.Run(t, analysistest.TestData(), as[0], "p")

	// Without the all setting, the highest ranked finding of a package
	// is reported (one for so few lines); with it, or with its older
	// names inherent and negligible, every finding, as -hotpath.all does.
	analysistest.Run(t, analysistest.TestData(), build(t, def)[0], "many")
	for _, name := range []string{"all", "inherent", "negligible"} {
		p, err := newPlugin(map[string]any{"enable": []any{"deepequal"}, name: true})
		if err != nil {
			t.Fatal(err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		analysistest.Run(t, analysistest.TestData(), as[0], "manyall")
	}

	// A profile is read when the analyzers are built: a missing one is
	// an error naming it.
	if p, err := newPlugin(map[string]any{"profile": "nosuch.pprof"}); err != nil {
		t.Fatal(err)
	} else if _, err := p.BuildAnalyzers(); err == nil || !strings.Contains(err.Error(), "nosuch.pprof") {
		t.Errorf("a missing profile: error %v, want one naming it", err)
	}

	if p, err := newPlugin(map[string]any{"enable": []any{"nosuch"}}); err == nil {
		if _, err := p.BuildAnalyzers(); err == nil {
			t.Error("an unknown analyzer in the settings was accepted")
		}
	}
	if _, err := newPlugin(map[string]any{"enable": 3}); err == nil {
		t.Error("malformed settings were accepted")
	}
}

// build returns the analyzers of the plugin p.
func build(t *testing.T, p register.LinterPlugin) []*analysis.Analyzer {
	t.Helper()
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	return as
}
