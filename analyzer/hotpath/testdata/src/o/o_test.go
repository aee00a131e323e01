package o

import "testing"

func TestProcess(t *testing.T) {
	for range 3 {
		processRecord(nil)
		processItem(nil)
	}
}
