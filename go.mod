module github.com/tileproof/tileproof

go 1.26

require go.yaml.in/yaml/v3 v3.0.6

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
)
