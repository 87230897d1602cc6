package main

import (
	"errors"
	"strconv"

	"github.com/spf13/pflag"
)

// The number flags read decimal only. pflag's own int flags take Go's
// literal syntax, so that --workers 010 would be 8 and --step 0x1f 31: a
// silent surprise.

type intValue struct{ p *int }

func (v intValue) String() string { return strconv.Itoa(*v.p) }
func (v intValue) Type() string   { return "int" }
func (v intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not an integer")
	}
	*v.p = n
	return nil
}

// intFlag defines a decimal int flag with a default.
func intFlag(fs *pflag.FlagSet, p *int, name string, def int, usage string) {
	*p = def
	fs.Var(intValue{p}, name, usage)
}

type uint64Value struct{ p *uint64 }

func (v uint64Value) String() string { return strconv.FormatUint(*v.p, 10) }
func (v uint64Value) Type() string   { return "uint64" }
func (v uint64Value) Set(s string) error {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return errors.New("not a whole number")
	}
	*v.p = n
	return nil
}

// uint64Flag defines a decimal uint64 flag with a default.
func uint64Flag(fs *pflag.FlagSet, p *uint64, name string, def uint64, usage string) {
	*p = def
	fs.Var(uint64Value{p}, name, usage)
}

// optionalInt is an int flag whose default is a word, not a number
// ("last" for show --step): set tells whether it was given.
type optionalInt struct {
	n     int
	set   bool
	unset string // the default, in words
}

func (v *optionalInt) String() string {
	if !v.set {
		return v.unset
	}
	return strconv.Itoa(v.n)
}
func (v *optionalInt) Type() string { return "int" }
func (v *optionalInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("not an integer")
	}
	v.n, v.set = n, true
	return nil
}
