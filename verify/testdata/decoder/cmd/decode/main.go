// Command decode copies the records of its standard input to its
// standard output, one a line.
package main

import (
	"bufio"
	"io"
	"log"
	"os"

	"example.com/decoder"
)

func main() {
	d := decoder.NewDecoder(bufio.NewReader(os.Stdin))
	w := bufio.NewWriter(os.Stdout)
	var rec []byte
	for {
		var err error
		rec, err = d.Next(rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		w.Write(rec)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}
