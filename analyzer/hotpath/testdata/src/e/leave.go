package e

import "fmt"

// Find searches as go/build's Import does: the block ends by returning
// "not found", but a goto leaves it when the search succeeds, so only
// the code after the last way out is an error path.
func Find(roots []string, name string) (string, error) {
	var dir string
	if name == "" {
		return "", errEmpty
	} else {
		for _, r := range roots {
			mark() // want `hot-loop: inside a loop`
			if r == name {
				dir = r
				goto Found
			}
		}
		if fallback := name + "/x"; len(fallback) > 3 {
			dir = fallback
			goto Found
		}
		tried := fmt.Sprint("tried ", mark()) // want `cold: on an error path`
		return "", fmt.Errorf("%s: not found", tried)
	}
Found:
	return dir, nil
}

// Pick ends a switch clause in an error, after a return of a result
// that leaves it on success: only the code after that return is cold.
func Pick(kind int, names []string) (string, error) {
	switch kind {
	case 1:
		for _, n := range names {
			if n != "" {
				return n, nil
			}
			mark() // want `hot-loop: inside a loop`
		}
		mark(fmt.Sprint(len(names))) // want `cold: on an error path`
		return "", errEmpty
	case 2:
		for range names {
			if mark() > 0 { // want `cold: on an error path`
				break // leaves the loop, not the clause
			}
		}
		mark() // want `cold: on an error path`
		return "", errEmpty
	}
	return "", nil
}
