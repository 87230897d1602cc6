package driver

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/tileproof/tileproof/internal/strictjson"
)

// plainAnswers are answers in the plain form: the fast path takes each.
var plainAnswers = []string{
	`{"id":12345,"ok":true,"changed":true,"gained":4,"spawn":{"row":0,"col":3,"value":2},"state":{"board":[[4,0,0,2],[0,0,0,0],[0,16,0,0],[0,0,8,0]],"score":4,"moves":1,"won":false,"over":false,"result":"playing"}}`,
	`{"id":7,"ok":true,"changed":false,"gained":0,"spawn":null,"state":{"board":[[2,0],[0,0]],"score":0,"moves":0,"won":false,"over":false}}`,
	`{"id":1,"ok":true,"protocol":1,"name":"ref","version":"1.0","profiles":["classic","tile-merge"],"features":["load-state","seed-tp1"]}`,
	`{"id":3,"ok":true,"legal":["up","left"]}`,
	`{"id":3,"ok":true,"legal":[]}`,
	`{"id":null,"ok":false,"error":"bad-request","message":"not JSON"}`,
	` { "id" : 2 , "ok" : true , "state" : { "board" : [ [ 0 , 2 ] , [ 4 , 0 ] ] , "score" : 0 , "moves" : 0 , "won" : false , "over" : false } } `,
}

// TestReadPlainTakesThePlainForm: the answers adapters write are read by
// the fast path, into what the strict decoder gives.
func TestReadPlainTakesThePlainForm(t *testing.T) {
	for _, line := range plainAnswers {
		var fast answerLine
		if !readPlain([]byte(line), &fast) {
			t.Errorf("the fast path declined %s", line)
			continue
		}
		var strict answerLine
		if err := json.Unmarshal([]byte(line), &strict, strictjson.Options()); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Errorf("%s:\nfast   %+v\nstrict %+v", line, fast, strict)
		}
	}
	for _, line := range []string{
		`{"id":1,"id":1,"ok":true}`,                        // a key twice
		`{"id":1,"ok":true,"extra":1}`,                     // an unknown key
		`{"id":01,"ok":true}`,                              // a leading zero
		`{"id":1.0,"ok":true}`,                             // another spelling
		`{"id":12345678901234567890,"ok":true}`,            // 20 digits
		`{"id":1,"ok":null}`,                               // null where a value is
		`{"id":1,"ok":true,"message":"\u00e9"}`,            // an escape
		`{"id":1,"ok":true,"legal":["a","b","c","d","e"]}`, // past the length
		`{"id":1,"ok":true} x`,                             // after the object
		`[1]`,
	} {
		var w answerLine
		if readPlain([]byte(line), &w) {
			t.Errorf("the fast path took %s", line)
		}
	}
}

// FuzzReadPlain holds the fast path to the strict decoder: what it takes,
// the strict decoder takes too, into the same structs.
func FuzzReadPlain(f *testing.F) {
	for _, line := range plainAnswers {
		f.Add(line)
		f.Add(strings.Replace(line, ",", ",,", 1))
		f.Add(line[:len(line)/2])
	}
	f.Fuzz(func(t *testing.T, line string) {
		var fast answerLine
		if !readPlain([]byte(line), &fast) {
			return
		}
		var strict answerLine
		if err := json.Unmarshal([]byte(line), &strict, strictjson.Options()); err != nil {
			t.Fatalf("the fast path took %q, which the strict decoder refuses: %v", line, err)
		}
		if !reflect.DeepEqual(fast, strict) {
			t.Fatalf("%q:\nfast   %+v\nstrict %+v", line, fast, strict)
		}
	})
}
