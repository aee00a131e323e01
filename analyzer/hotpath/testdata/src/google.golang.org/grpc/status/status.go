// Package status stands in for grpc's status.
package status

import "google.golang.org/grpc/codes"

type Status struct {
	c   codes.Code
	msg string
}

func New(c codes.Code, msg string) *Status { return &Status{c, msg} }

func Errorf(c codes.Code, format string, a ...any) error { return nil }
