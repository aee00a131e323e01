// Package codes stands in for grpc's codes.
package codes

type Code uint32

const (
	OK       Code = 0
	Internal Code = 13
)
