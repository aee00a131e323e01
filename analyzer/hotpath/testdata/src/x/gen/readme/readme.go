// readme generates the README from a template (zap's internal/readme):
// it runs when a developer regenerates the file, loops included.
package main

import "fmt"

func mark() {}

func main() {
	for i := range 3 {
		mark() // want `cold: runs rarely: a program that generates files, as its package comment says`
		fmt.Println(i)
	}
}
