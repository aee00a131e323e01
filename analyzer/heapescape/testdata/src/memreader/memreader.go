// Package memreader has readers made over bytes the code already holds,
// only to hand them to code that reads through an interface, and readers
// that outlive the call.
package memreader

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
)

// readVarint reads a varint through the interface (quic-go's
// quicvarint.Read).
func readVarint(r io.ByteReader) (uint64, error) {
	var v uint64
	for s := 0; s < 64; s += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		v |= uint64(b&0x7f) << s
		if b < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint too long")
}

// Datagrams reads each datagram's stream ID through a reader in a local
// variable, which it also asks for the rest (quic-go's receiveDatagrams).
func Datagrams(dgs [][]byte) (n int) {
	for _, b := range dgs {
		r := bytes.NewReader(b) // want `calling bytes.NewReader allocates \(inlined\): .*because readVarint calls its methods through an interface \(io.ByteReader.ReadByte\) the compiler cannot see through; the data is already in memory, and the reader only carries b to readVarint: give readVarint a form that takes the bytes and returns how many it consumed`
		id, err := readVarint(r)
		if err != nil {
			continue
		}
		n += int(id) + r.Len()
	}
	return n
}

// header is parsed from a reader of a string.
type header struct{ name [4]byte }

// parseHeader reads through io.ReadFull.
func parseHeader(r *strings.Reader, h *header) error {
	_, err := io.ReadFull(r, h.name[:])
	return err
}

// Headers parses each line, the reader given to the parser at once.
func Headers(lines []string) (hs []header) {
	for _, l := range lines {
		var h header
		if parseHeader(strings.NewReader(l), &h) == nil { // want `calling strings.NewReader allocates \(inlined\): .*the reader only carries l to parseHeader: give parseHeader a form`
			hs = append(hs, h)
		}
	}
	return hs
}

// Lengths decodes each record's length with another module's function:
// the change is to read the bytes with one that takes them.
func Lengths(recs [][]byte) (n uint32) {
	for _, rec := range recs {
		var l uint32
		if err := binary.Read(bytes.NewReader(rec), binary.BigEndian, &l); err == nil { // want `the reader only carries rec to binary.Read: read rec with a function that takes the bytes \(the destination's Write for io.Copy, json.Unmarshal for a json.Decoder, binary.Decode or the byte order's methods for binary.Read\), which saves the reader per call; no automatic fix: binary.Read is another module's`
			n += l
		}
	}
	return n
}

// Open returns the reader: the caller keeps it.
func Open(b []byte) io.Reader {
	return bytes.NewReader(b)
}

// Opens opens each record.
func Opens(recs [][]byte) (rs []io.Reader) {
	for _, rec := range recs {
		rs = append(rs, Open(rec))
	}
	return rs
}

// source keeps a reader between calls.
type source struct{ r io.ByteReader }

// Sources keeps each reader in the value it returns.
func Sources(recs [][]byte) (ss []*source) {
	for _, rec := range recs {
		r := bytes.NewReader(rec)
		ss = append(ss, &source{r: r})
	}
	return ss
}

// Later reads each record in a function literal that outlives the loop.
func Later(recs [][]byte) (fs []func() (uint64, error)) {
	for _, rec := range recs {
		r := bytes.NewReader(rec)
		fs = append(fs, func() (uint64, error) { return readVarint(r) })
	}
	return fs
}

var last io.Reader

// keep keeps its reader in a package-level variable.
func keep(r io.Reader) { last = r }

// Kept hands each reader to a function that keeps it.
func Kept(recs [][]byte) {
	for _, rec := range recs {
		keep(bytes.NewReader(rec))
	}
}

// Decoder decodes records from a stream.
type Decoder struct{ n int }

// Decode reads one record through its reader, for any caller's stream.
func (d *Decoder) Decode(r io.ByteReader) error {
	for {
		b, err := r.ReadByte()
		if err != nil {
			return err
		}
		if b == '\n' {
			d.n++
			return nil
		}
		if b == 0 {
			return errors.New("zero byte")
		}
	}
}

// DecodeBytes is the convenience form over bytes (nats.go's PutBytes):
// the exported Decode keeps its reader form for other callers, so the
// change is a person's to judge.
func (d *Decoder) DecodeBytes(b []byte) error {
	return d.Decode(bytes.NewReader(b)) // want `give \(\*Decoder\).Decode a form that takes the bytes.*; no automatic fix: \(\*Decoder\).Decode is exported, and other callers may pass it a stream`
}

// copyRecord writes a record through io.Copy, which reads the reader
// through io.Reader: the destination's Write takes the bytes as they are.
func copyRecord(w io.Writer, rec []byte) error {
	_, err := io.Copy(w, bytes.NewReader(rec)) // want `the reader only carries rec to io.Copy: read rec with a function that takes the bytes \(the destination's Write for io.Copy`
	return err
}

// Copy writes each record.
func Copy(w io.Writer, recs [][]byte) error {
	for _, rec := range recs {
		if err := copyRecord(w, rec); err != nil {
			return err
		}
	}
	return nil
}
