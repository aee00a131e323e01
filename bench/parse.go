package bench

import (
	"fmt"
	"io"
	"math"
	"os"

	"golang.org/x/perf/benchfmt"
)

// parse reads Go benchmark output from r. Malformed lines and non-finite
// values are skipped and reported as warnings naming the file and line;
// lines that are not benchmark results or configuration are ignored, as
// go test prints many of them. Only an I/O error is returned as an error.
func parse(r io.Reader, fileName string) (*resultSet, error) {
	set := &resultSet{}
	rd := benchfmt.NewReader(r, fileName)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			set.warnings = append(set.warnings, rec.Error())
		case *benchfmt.Result:
			res := rec.Clone()
			vals := res.Values[:0]
			for _, v := range res.Values {
				if math.IsNaN(v.Value) || math.IsInf(v.Value, 0) {
					file, line := rec.Pos()
					set.warnings = append(set.warnings, fmt.Sprintf("%s:%d: ignoring non-finite value %v %s", file, line, v.Value, v.Unit))
					continue
				}
				vals = append(vals, v)
			}
			res.Values = vals
			if len(res.Values) > 0 {
				set.results = append(set.results, res)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("reading %s: %w", fileName, err)
	}
	set.units = rd.Units()
	return set, nil
}

// parseFile reads a file of benchmark output. It is an error for the file to
// contain no benchmark results.
func parseFile(name string) (*resultSet, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set, err := parse(f, name)
	if err != nil {
		return nil, err
	}
	if len(set.results) == 0 {
		return nil, fmt.Errorf("%s: no benchmark results", name)
	}
	return set, nil
}

// CompareOptions configures CompareFiles.
type CompareOptions struct {
	// Alpha is the significance level; 0 means DefaultAlpha.
	Alpha float64
	// Threshold is the regression threshold in percent (see the package
	// documentation); 0 means any significant regression counts.
	Threshold float64
}

// CompareFiles compares the benchmark results in the files old and new, as
// written by go test -bench (possibly with -count), like benchstat old new.
func CompareFiles(old, new string, opts CompareOptions) (*Comparison, error) {
	base, err := parseFile(old)
	if err != nil {
		return nil, err
	}
	head, err := parseFile(new)
	if err != nil {
		return nil, err
	}
	c := compare(base, head, opts.Alpha, opts.Threshold)
	c.BaseLabel, c.HeadLabel = old, new
	return c, nil
}

// Parse compares benchmark output read from old and new; the names label
// the two inputs in warnings and output. Unlike CompareFiles it accepts
// inputs without any results.
func Parse(old io.Reader, oldName string, new io.Reader, newName string, opts CompareOptions) (*Comparison, error) {
	base, err := parse(old, oldName)
	if err != nil {
		return nil, err
	}
	head, err := parse(new, newName)
	if err != nil {
		return nil, err
	}
	c := compare(base, head, opts.Alpha, opts.Threshold)
	c.BaseLabel, c.HeadLabel = oldName, newName
	return c, nil
}
