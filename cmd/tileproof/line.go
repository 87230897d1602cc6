package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/spf13/cobra"

	"github.com/tileproof/tileproof/engine"
	"github.com/tileproof/tileproof/internal/strictjson"
	"github.com/tileproof/tileproof/replay/batchfiles"
)

// lineOutput is the JSON shape of the Merge-line tool's answer.
type lineOutput struct {
	LineAfterLeftSwipe []int64 `json:"lineAfterLeftSwipe"`
	MergeScoreAdded    int64   `json:"mergeScoreAdded"`
	LineChanged        bool    `json:"lineChanged"`
}

func (c *cli) lineCommand() *cobra.Command {
	var jsonIn string
	cmd := &cobra.Command{
		Use:   "line [flags] CELL...",
		Short: "merge one line left, as the Merge-line tool does",
		Long: `Merge one line left, as the Merge-line tool does (docs/sources.md): 1 to 16 cells, each 0
(or ".", an empty cell as boards print it) or a power of two up to 2^52; it prints the line
after the swipe, the merge score and whether the line changed. With --json, read the
tool's JSON shape, {"lineBeforeSwipe": [...]}, and answer in it.`,
		Example: "  tileproof line 2 2 2 2\n  tileproof line . 2 . 2\n  tileproof line --json '{\"lineBeforeSwipe\":[2,2,2,2]}'",
	}
	fl := cmd.Flags()
	fl.StringVar(&jsonIn, "json", "", "read the cells as the Merge-line tool's `JSON`, {\"lineBeforeSwipe\": [...]}, from the argument or - for stdin, and answer in JSON")
	cmd.RunE = c.run(func(cmd *cobra.Command, args []string) int { return c.line(cmd, jsonIn, args) })
	return cmd
}

func (c *cli) line(cmd *cobra.Command, jsonIn string, args []string) int {
	var cells []int64
	var err error
	if jsonIn != "" {
		if len(args) > 0 {
			return c.fail(exitBadUsage, "line: give the cells either as arguments or with --json, not both")
		}
		data := []byte(jsonIn)
		if jsonIn == "-" {
			if data, err = batchfiles.ReadAtMost(c.stdin, 1<<20); err != nil {
				return c.fail(exitBadUsage, "line: reading stdin: %v", err)
			}
		}
		if cells, err = decodeLineJSON(data); err != nil {
			return c.fail(exitBadUsage, "line: --json: %v", err)
		}
	} else {
		if len(args) == 0 {
			return c.usageFail(cmd)
		}
		for i, a := range args {
			if a == "." {
				cells = append(cells, 0)
				continue
			}
			v, err := strconv.ParseInt(a, 10, 64)
			if err != nil {
				return c.fail(exitBadUsage, "line: cell %d: %q is not an integer (or . for an empty cell)", i, a)
			}
			cells = append(cells, v)
		}
	}
	res, err := engine.MergeLine(cells)
	if err != nil {
		var le *engine.LineError
		if errors.As(err, &le) && le.Index >= 0 && jsonIn != "" {
			return c.fail(exitBadUsage, "line: lineBeforeSwipe[%d]: %s", le.Index, le.Msg)
		}
		return c.fail(exitBadUsage, "line: %v", err)
	}
	if jsonIn != "" {
		out, _ := json.Marshal(lineOutput{res.Line, res.Score, res.Changed})
		fmt.Fprintf(c.stdout, "%s\n", out)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "line after left swipe: %s\n", strings.Trim(fmt.Sprint(res.Line), "[]")) // the cells, a space apart
	fmt.Fprintf(c.stdout, "merge score added:     %d\n", res.Score)
	fmt.Fprintf(c.stdout, "line changed:          %v\n", res.Changed)
	return exitOK
}

// decodeLineJSON reads the Merge-line tool's input object strictly
// (internal/strictjson: exactly the key lineBeforeSwipe, given once, in
// its case): a list of numbers, each an integer (2, 2.0 and 2e0 are the
// same number in JSON). Range and power-of-two checks are the engine's.
func decodeLineJSON(data []byte) ([]int64, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty input; want {\"lineBeforeSwipe\": [...]}")
	}
	// The syntax first: a list cut short is unfinished JSON, not a list.
	if _, err := jsontext.NewDecoder(bytes.NewReader(data), strictjson.Options()).ReadValue(); err != nil {
		return nil, jsonError(err)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), strictjson.Options())
	var in struct {
		LineBeforeSwipe *[]jsontext.Value `json:"lineBeforeSwipe"`
	}
	if err := json.UnmarshalDecode(dec, &in); err != nil {
		return nil, jsonError(err)
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, fmt.Errorf("data after the object, at byte %d", len(data)-len(rest))
	}
	if in.LineBeforeSwipe == nil {
		return nil, errors.New(`missing the field "lineBeforeSwipe" (a list of 1 to 16 numbers)`)
	}
	raw := *in.LineBeforeSwipe
	if len(raw) > engine.MaxLine {
		return nil, fmt.Errorf("lineBeforeSwipe has %d cells; a line has 1 to %d", len(raw), engine.MaxLine)
	}
	cells := make([]int64, len(raw))
	for i, r := range raw {
		v, err := jsonInteger(r)
		if err != nil {
			return nil, fmt.Errorf("lineBeforeSwipe[%d]: %v", i, err)
		}
		cells[i] = v
	}
	return cells, nil
}

// jsonInteger reads a JSON value that must be a number with an integer
// value within ±2^53.
func jsonInteger(r jsontext.Value) (int64, error) {
	s := string(r)
	if r.Kind() != '0' {
		return 0, fmt.Errorf("%s is not a number", s)
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f > 1<<53 || f < -(1<<53) {
		return 0, fmt.Errorf("%s is out of range", s)
	}
	// The magnitude is bounded, so the exact value is cheap to compute.
	exact, ok := new(big.Rat).SetString(s)
	if !ok || !exact.IsInt() {
		return 0, fmt.Errorf("%s is not an integer", s)
	}
	return exact.Num().Int64(), nil
}

// jsonError rewords the decoder's errors for a person.
func jsonError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("invalid JSON: the input ends inside a value")
	}
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok {
		if errors.Is(err, jsontext.ErrDuplicateName) {
			return fmt.Errorf("%q given twice", strings.TrimPrefix(string(se.JSONPointer), "/"))
		}
		return fmt.Errorf("invalid JSON at byte %d: %v", se.ByteOffset, strings.TrimPrefix(se.Err.Error(), "jsontext: "))
	}
	se, ok := errors.AsType[*json.SemanticError](err)
	switch {
	case !ok:
		return err
	case errors.Is(err, json.ErrUnknownName):
		return fmt.Errorf("unknown field %q; the input has only \"lineBeforeSwipe\"", strings.TrimPrefix(string(se.JSONPointer), "/"))
	case se.JSONPointer == "":
		return fmt.Errorf("want a JSON object, found %s", strictjson.KindName(se.JSONKind))
	}
	return fmt.Errorf("lineBeforeSwipe: want a list of numbers, found %s", strictjson.KindName(se.JSONKind))
}
