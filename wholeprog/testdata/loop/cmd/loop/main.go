package main

import (
	"fmt"
	"os"

	"example.com/loop/work"
)

func main() {
	fmt.Println(work.Labels(len(os.Args), os.Args), work.Scan([][]byte{[]byte("x")}), work.Frames(os.Stdin, 2))
}
