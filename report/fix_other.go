//go:build !unix

package report

import "os"

// hardLinked reports false: the number of links of a file is only known
// on Unix systems here.
func hardLinked(fi os.FileInfo) bool { return false }
