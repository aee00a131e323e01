// Package clearold is written for Go 1.20, which has no clear builtin:
// the advice is the range form.
package clearold

func zero(data []int32) {
	for i := 0; i < len(data); i++ { // want `write for i := range data \{ data\[i\] = 0 \}`
		data[i] = 0
	}
}
