package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/pflag"
)

// decimal is a number flag read in decimal only. pflag's own number flags
// take Go's literal syntax, so that --workers 010 would be 8 and --step
// 0x1f 31: a silent surprise. An unset word, when not "", is the default
// in words ("the last" for show --step), shown until the flag is set.
type decimal[T int | uint64] struct {
	p     *T
	unset string
	set   bool
}

func (v *decimal[T]) String() string {
	if v.unset != "" && !v.set {
		return v.unset
	}
	return fmt.Sprint(*v.p)
}

// Type is "int" or "uint64", which says what a bad value should be
// (flagError).
func (v *decimal[T]) Type() string { return fmt.Sprintf("%T", *v.p) }

func (v *decimal[T]) Set(s string) error {
	var n T
	var err error
	switch p := any(&n).(type) {
	case *int:
		*p, err = strconv.Atoi(s)
	case *uint64:
		*p, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		return err
	}
	*v.p, v.set = n, true
	return nil
}

// numFlag defines a decimal number flag with a default.
func numFlag[T int | uint64](fs *pflag.FlagSet, p *T, name string, def T, usage string) {
	*p = def
	fs.Var(&decimal[T]{p: p}, name, usage)
}
