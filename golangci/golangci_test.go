package golangci_test

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/goadvise/goadvise/analyzer/hotpath"
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

	t.Cleanup(func() { hotpath.Analyzer.Flags.Set("cold", "false") })
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

	// The all setting reports every finding of each package, as
	// -hotpath.all does (the suite reports the highest ranked without
	// it); inherent and negligible are its older names.
	for _, name := range []string{"all", "inherent", "negligible"} {
		hotpath.Analyzer.Flags.Set("all", "false")
		p, err := newPlugin(map[string]any{"enable": []any{"heapescape"}, name: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.BuildAnalyzers(); err != nil {
			t.Fatal(err)
		}
		if all := hotpath.Analyzer.Flags.Lookup("all").Value.String(); all != "true" {
			t.Errorf("the %s setting left hotpath -all at %s", name, all)
		}
	}
	hotpath.Analyzer.Flags.Set("all", "false")

	if p, err := newPlugin(map[string]any{"enable": []any{"nosuch"}}); err == nil {
		if _, err := p.BuildAnalyzers(); err == nil {
			t.Error("an unknown analyzer in the settings was accepted")
		}
	}
	if _, err := newPlugin(map[string]any{"enable": 3}); err == nil {
		t.Error("malformed settings were accepted")
	}
}
