package replay

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxThinkTime is the largest think time a replay records, in
// milliseconds: 2^32-1, some 49 days.
const MaxThinkTime = 1<<32 - 1

// appendParsedTimes reads a replay's times, whole numbers of milliseconds
// written plainly and separated by white space, one for each of the
// log's actions actions, appending them to ts, whose room it reuses. The
// result is not nil.
func appendParsedTimes(ts []uint32, s string, actions int) ([]uint32, error) {
	if ts == nil {
		ts = make([]uint32, 0, min(actions, len(s)/2+1))
	}
	for i := 0; i < len(s); {
		if isSpace(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		end := j
		for end < len(s) && !isSpace(s[end]) {
			end++
		}
		tok := s[i:end]
		if j == i || j != end || (s[i] == '0' && j-i > 1) {
			return ts[:0], fmt.Errorf("time %d, %s, is not a whole number of milliseconds written plainly", len(ts)+1, quoteToken(tok))
		}
		v, err := strconv.ParseUint(tok, 10, 64)
		if err != nil || v > MaxThinkTime {
			return ts[:0], fmt.Errorf("time %d, %s ms, is beyond %d ms", len(ts)+1, quoteToken(tok), uint64(MaxThinkTime))
		}
		if len(ts) == actions {
			return ts[:0], fmt.Errorf("more times than the log's %d actions: a time an action", actions)
		}
		ts = append(ts, uint32(v))
		i = end
	}
	if len(ts) != actions {
		return ts[:0], fmt.Errorf("%d times for the log's %d actions: a time an action", len(ts), actions)
	}
	return ts, nil
}

// quoteToken quotes at most 20 bytes of a token for a message.
func quoteToken(tok string) string {
	if len(tok) > 20 {
		return strconv.Quote(tok[:20]) + "..."
	}
	return strconv.Quote(tok)
}

// hexForm reports whether s is prefix and 64 lower-case hex digits, as a
// seed commitment ("sha256:") and a times seal ("hmac-sha256:") are
// written.
func hexForm(s, prefix string) bool {
	h, ok := strings.CutPrefix(s, prefix)
	return ok && len(h) == 64 && strings.Trim(h, "0123456789abcdef") == ""
}

// TimesLog returns the replay's times as the format writes them: whole
// numbers of milliseconds separated by spaces ("" for none).
func (r *Replay) TimesLog() string {
	b := make([]byte, 0, len(r.Times)*5)
	for i, t := range r.Times {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendUint(b, uint64(t), 10)
	}
	return string(b)
}

// TimesCheck is what a check of a replay's think times against the key of
// the signed server that dealt its game found: whether its timesSeal is
// that server's MAC of these times for this game. It says nothing of the
// game's legality, which the verdict gives: a game whose times are not
// sealed is as valid or invalid as without them.
type TimesCheck struct {
	Count  int    // the replay's times (0 for none)
	Sealed bool   // the times are those the server with the key measured for this game
	Reason string // when not sealed, why, in words
}

// TimesState is the outcome of a check of think times, as the pages and
// the summary of verify --times-key-file name it.
type TimesState string

// The outcomes of a check.
const (
	TimesSealed    TimesState = "sealed"     // the times are those the server measured
	TimesNotSealed TimesState = "not-sealed" // they are not (Reason says why)
	TimesNone      TimesState = "none"       // the replay has no times to check
)

// State is the check's outcome; "" when there was no check (tc is nil).
func (tc *TimesCheck) State() TimesState {
	switch {
	case tc == nil:
		return ""
	case tc.Sealed:
		return TimesSealed
	case tc.Count == 0:
		return TimesNone
	}
	return TimesNotSealed
}

// appendJSON writes the check as a verdict line's "thinkTimes":
// {"count":N,"sealed":B} and, when not sealed, "reason".
func (tc *TimesCheck) appendJSON(b []byte) []byte {
	w := jsonWriter{b: append(b, '{')}
	w.num("count", uint64(tc.Count))
	w.key("sealed")
	w.b = strconv.AppendBool(w.b, tc.Sealed)
	if !tc.Sealed {
		w.opt("reason", tc.Reason)
	}
	return append(w.b, '}')
}
