// Package strictjson is the module's one way of reading JSON strictly:
// the options every strict reader passes to go-json-experiment/json, and
// the words its messages use for what they found.
//
// Read this way, a document means one thing to every JSON reader: one
// value and nothing after it, keys matched exactly (case included), a key
// given twice, an unknown key or invalid UTF-8 an error. encoding/json
// would match "STATE" and "ſtate" to state and let the last of two keys
// win, so a proxy or a log reading the same text in another language
// could see another document.
package strictjson

import (
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Options returns the options of a strict reading, for [json.Unmarshal]
// and [jsontext.NewDecoder].
func Options() json.Options {
	optionsOnce.Do(func() {
		options = json.JoinOptions(
			json.RejectUnknownMembers(true),
			json.MatchCaseInsensitiveNames(false),
			jsontext.AllowDuplicateNames(false),
			jsontext.AllowInvalidUTF8(false),
		)
	})
	return options
}

// options are joined once (joining allocates), at first use (nothing is
// done at start: TestNoInitWork).
var (
	optionsOnce sync.Once
	options     json.Options
)

// KindName names a JSON value's kind for a message: "null", "a
// boolean", "a string", "a number", "an object", "a list"; "a value" for
// any other.
func KindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "a list"
	}
	return "a value"
}
