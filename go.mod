module github.com/tileproof/tileproof

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/rogpeppe/go-internal v1.16.0
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
