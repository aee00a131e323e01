module github.com/goadvise/goadvise

go 1.26.0

require (
	github.com/golangci/plugin-module-register v0.1.2
	github.com/google/pprof v0.0.0-20261105003125-4bf881d7fb0b
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
	golang.org/x/tools v0.52.0
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
