package pgo

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"io"
	"sort"

	"github.com/google/pprof/profile"
)

// This file writes profile.proto (github.com/google/pprof/proto/profile.proto)
// directly from a merger's accumulator, one sample at a time, so that
// writing a large merged profile does not need a profile.Profile of it.

// protoBuf builds one protobuf message.
type protoBuf []byte

func (b *protoBuf) varint(field int, v uint64) {
	*b = binary.AppendUvarint(*b, uint64(field)<<3)
	*b = binary.AppendUvarint(*b, v)
}

func (b *protoBuf) int(field int, v int64) {
	if v != 0 {
		b.varint(field, uint64(v))
	}
}

func (b *protoBuf) bytes(field int, data []byte) {
	*b = binary.AppendUvarint(*b, uint64(field)<<3|2)
	*b = binary.AppendUvarint(*b, uint64(len(data)))
	*b = append(*b, data...)
}

func (b *protoBuf) packed(field int, vs []uint64, tmp *protoBuf) {
	if len(vs) == 0 {
		return
	}
	*tmp = (*tmp)[:0]
	for _, v := range vs {
		*tmp = binary.AppendUvarint(*tmp, v)
	}
	b.bytes(field, *tmp)
}

// strtab assigns string table indexes.
type strtab struct {
	index map[string]int64
	list  []string
}

func (s *strtab) id(str string) int64 {
	if i, ok := s.index[str]; ok {
		return i
	}
	i := int64(len(s.list))
	s.index[str] = i
	s.list = append(s.list, str)
	return i
}

// write writes the merged profile, gzip-compressed, to w. The header
// (everything but the samples) comes from hdr, whose Sample field is
// ignored; samples come from each.
func writeProto(w io.Writer, hdr *profile.Profile, each func(func(*profile.Sample))) error {
	gz, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	bw := bufio.NewWriterSize(gz, 1<<16)
	st := &strtab{index: map[string]int64{}}
	st.id("")
	var msg, sub, tmp protoBuf
	emit := func(field int, m protoBuf) {
		var hdrBuf [20]byte
		h := binary.AppendUvarint(hdrBuf[:0], uint64(field)<<3|2)
		h = binary.AppendUvarint(h, uint64(len(m)))
		bw.Write(h)
		bw.Write(m)
	}
	valueType := func(field int, vt *profile.ValueType) {
		sub = sub[:0]
		sub.int(1, st.id(vt.Type))
		sub.int(2, st.id(vt.Unit))
		emit(field, sub)
	}
	for _, vt := range hdr.SampleType {
		valueType(1, vt)
	}
	// Samples.
	var ids, vals []uint64
	each(func(s *profile.Sample) {
		msg = msg[:0]
		ids = ids[:0]
		for _, l := range s.Location {
			ids = append(ids, l.ID)
		}
		msg.packed(1, ids, &tmp)
		vals = vals[:0]
		for _, v := range s.Value {
			vals = append(vals, uint64(v))
		}
		msg.packed(2, vals, &tmp)
		keys := make([]string, 0, len(s.Label))
		for k := range s.Label {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, v := range s.Label[k] {
				sub = sub[:0]
				sub.int(1, st.id(k))
				sub.int(2, st.id(v))
				msg.bytes(3, sub)
			}
		}
		emit(2, msg)
	})
	for _, m := range hdr.Mapping {
		msg = msg[:0]
		msg.int(1, int64(m.ID))
		msg.int(2, int64(m.Start))
		msg.int(3, int64(m.Limit))
		msg.int(4, int64(m.Offset))
		msg.int(5, st.id(m.File))
		msg.int(6, st.id(m.BuildID))
		for i, b := range []bool{m.HasFunctions, m.HasFilenames, m.HasLineNumbers, m.HasInlineFrames} {
			if b {
				msg.varint(7+i, 1)
			}
		}
		emit(3, msg)
	}
	for _, l := range hdr.Location {
		msg = msg[:0]
		msg.int(1, int64(l.ID))
		if l.Mapping != nil {
			msg.int(2, int64(l.Mapping.ID))
		}
		msg.int(3, int64(l.Address))
		for _, ln := range l.Line {
			sub = sub[:0]
			sub.int(1, int64(ln.Function.ID))
			sub.int(2, ln.Line)
			msg.bytes(4, sub)
		}
		emit(4, msg)
	}
	for _, f := range hdr.Function {
		msg = msg[:0]
		msg.int(1, int64(f.ID))
		msg.int(2, st.id(f.Name))
		msg.int(3, st.id(f.SystemName))
		msg.int(4, st.id(f.Filename))
		msg.int(5, f.StartLine)
		emit(5, msg)
	}
	var comments []int64
	for _, c := range hdr.Comments {
		comments = append(comments, st.id(c))
	}
	if hdr.PeriodType != nil {
		st.id(hdr.PeriodType.Type)
		st.id(hdr.PeriodType.Unit)
	}
	for _, s := range st.list {
		emit(6, protoBuf(s))
	}
	msg = msg[:0]
	msg.int(9, hdr.TimeNanos)
	msg.int(10, hdr.DurationNanos)
	bw.Write(msg)
	if hdr.PeriodType != nil {
		valueType(11, hdr.PeriodType)
	}
	msg = msg[:0]
	msg.int(12, hdr.Period)
	for _, c := range comments {
		msg.varint(13, uint64(c))
	}
	bw.Write(msg)
	if err := bw.Flush(); err != nil {
		return err
	}
	return gz.Close()
}
