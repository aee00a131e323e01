package driver

import (
	"errors"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/goadvise/goadvise/analyzer/suite"
	"github.com/goadvise/goadvise/wholeprog"
)

// Select chooses the analyzers and the whole-program passes to run from
// the names in enable and disable (-enable and -disable, which take both)
// and whole (-whole). enable runs exactly what it names: the analyzers it
// names, or every analyzer if it names none, and the passes it names;
// whole adds every pass if enable names none. An enable naming only
// passes runs no analyzer. disable removes what it names from the rest.
func Select(enable, disable []string, whole bool) ([]*analysis.Analyzer, []string, error) {
	isPass := make(map[string]bool)
	for _, p := range wholeprog.Passes() {
		isPass[p.Name] = true
	}
	split := func(names []string) (as, ps []string) {
		for _, n := range names {
			if isPass[n] {
				ps = append(ps, n)
			} else {
				as = append(as, n)
			}
		}
		return as, ps
	}
	enableA, enableP := split(enable)
	disableA, disableP := split(disable)
	var passes []string
	for _, p := range wholeprog.Passes() {
		named := slices.Contains(enableP, p.Name) || (whole && len(enableP) == 0)
		if named && !slices.Contains(disableP, p.Name) {
			passes = append(passes, p.Name)
		}
	}
	if len(enableA) == 0 && len(enableP) > 0 {
		if len(passes) == 0 {
			return nil, nil, errors.New("no analyzers left to run after -enable/-disable")
		}
		return nil, passes, nil
	}
	analyzers, err := suite.Select(enableA, disableA)
	if err != nil && len(passes) > 0 && len(enableA) == 0 {
		// Every analyzer disabled, but passes remain: run those.
		return nil, passes, nil
	}
	return analyzers, passes, err
}
