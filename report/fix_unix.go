//go:build unix

package report

import (
	"os"
	"syscall"
)

// hardLinked reports whether the file has other names (hard links).
func hardLinked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
