package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/tileproof/tileproof/internal/strictjson"
	"github.com/tileproof/tileproof/internal/strictyaml"
	"github.com/tileproof/tileproof/protocol"
)

// MaxBody is the largest request body the server reads.
const MaxBody = 64 << 10

// maxQuoted is how much of a client's text an error message quotes.
const maxQuoted = 60

// requestError is a request the server does not read: the HTTP status
// and what is wrong.
type requestError struct {
	code int
	msg  string
}

// readAction reads the body of POST .../action: Content-Type
// application/json (charset utf-8 at most), at most MaxBody bytes, read
// strictly.
func readAction(w http.ResponseWriter, r *http.Request) (*protocol.ActionRequest, *requestError) {
	if _, err := contentType(r.Header, "the API reads application/json", "application/json"); err != nil {
		return nil, err
	}
	body, rerr := readBody(w, r, MaxBody, "the request")
	if rerr != nil {
		return nil, rerr
	}
	if err := checkShape(body); err != nil {
		return nil, &requestError{http.StatusBadRequest, "the request is not {state, action} JSON: " + err.Error()}
	}
	var req protocol.ActionRequest
	if err := json.Unmarshal(body, &req, strictjson.Options()); err != nil {
		return nil, &requestError{http.StatusBadRequest, "the request is not {state, action} JSON: " + describe(body, err)}
	}
	if req.State == nil || req.Action == nil {
		return nil, &requestError{http.StatusBadRequest, "the request needs both state and action"}
	}
	return &req, nil
}

// The shape of the largest request: {state: {board: [[cell]], prev:
// {board: [[cell]]}}} nests 5 deep, and two boards of 8x8 with their
// fields are about 200 values.
const (
	maxDepth  = 5
	maxValues = 1024
)

// decoders keeps token decoders for reuse: each has buffers of its own.
var decoders = sync.Pool{New: func() any { return jsontext.NewDecoder(new(bytes.Buffer)) }}

// checkShape bounds what decoding body can cost before it is decoded: at
// most maxDepth levels of nesting and maxValues values. Within them a
// request allocates a small multiple of its size, whatever its shape
// (docs/api.md).
func checkShape(body []byte) error {
	dec := decoders.Get().(*jsontext.Decoder)
	dec.Reset(bytes.NewBuffer(body), strictjson.Options())
	defer decoders.Put(dec)
	for n := 0; ; n++ {
		kind := dec.PeekKind()
		if kind == 0 {
			break // the end, or an error that decoding reports with its place
		}
		switch {
		case n == maxValues:
			return fmt.Errorf("%s: more than %d values; a request has two boards of 8x8 at most", position(body, dec.InputOffset()), maxValues)
		case (kind == '{' || kind == '[') && dec.StackDepth() == maxDepth:
			return fmt.Errorf("%s: nested more than %d deep; a request nests %d deep at most", position(body, dec.InputOffset()), maxDepth, maxDepth)
		}
		if _, err := dec.ReadToken(); err != nil {
			break
		}
	}
	return nil
}

// contentType reads a request's one Content-Type: one of types, with no
// parameter but charset=utf-8. reads says, in a refusal, what the
// endpoint reads.
func contentType(h http.Header, reads string, types ...string) (string, *requestError) {
	refuse := func(what string) *requestError {
		return &requestError{http.StatusUnsupportedMediaType, what + "; " + reads}
	}
	cts := h.Values("Content-Type")
	switch len(cts) {
	case 0:
		return "", refuse("the request has no Content-Type")
	case 1:
	default:
		return "", refuse("the request has several Content-Type headers")
	}
	mt, params, err := mime.ParseMediaType(cts[0])
	if err != nil || !slices.Contains(types, mt) {
		return "", refuse("the request's Content-Type is " + strictyaml.Quote(cts[0], maxQuoted))
	}
	for k, v := range params {
		if k != "charset" || !strings.EqualFold(v, "utf-8") {
			return "", refuse("the request's Content-Type is " + strictyaml.Quote(cts[0], maxQuoted) + " (the only parameter taken is charset=utf-8)")
		}
	}
	return mt, nil
}

// readBody reads a request's body of at most limit bytes; what names
// the body in the refusal of a larger one.
func readBody(w http.ResponseWriter, r *http.Request, limit int64, what string) ([]byte, *requestError) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("%s is larger than %d bytes", what, limit)}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			answerLate(w)
			return nil, &requestError{http.StatusRequestTimeout, what + timedOut}
		}
		return nil, &requestError{http.StatusBadRequest, "reading the request: " + err.Error()}
	}
	return body, nil
}

// timedOut says, after what was being read, that a body was cut off by
// the server's read timeout, and what to do.
const timedOut = " did not all come in time: the server's read timeout, which counts from the request's start, passed with the body still coming; send it again, whole and at once"

// answerGrace is how long an answer to a request whose body timed out
// has to go out. The server's write timeout counts from the same start
// as its read timeout, so without more time the answer saying why would
// be cut off too, and the client would see its connection closed, or an
// answer cut short, with no word of why.
const answerGrace = 5 * time.Second

// answerLate gives the answer to a request whose body the server's read
// timeout cut off answerGrace to go out, and closes the connection
// after it (the rest of the body is not read).
func answerLate(w http.ResponseWriter) {
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(answerGrace))
	w.Header().Set("Connection", "close")
}

// describe says where in body and what err, a decoding error, found:
// the line and column, the key's path, and what is wrong, quoting at most
// maxQuoted bytes of anything the client wrote.
func describe(body []byte, err error) string {
	if len(bytes.TrimSpace(body)) == 0 {
		return "the request is empty"
	}
	at := func(off int64, ptr jsontext.Pointer) string {
		s := position(body, off)
		if ptr != "" {
			s += " (" + strictyaml.Quote(string(ptr), maxQuoted) + ")"
		}
		return s
	}
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok {
		switch {
		case errors.Is(err, jsontext.ErrDuplicateName):
			return fmt.Sprintf("%s: the key %s is given twice; a key is given once", at(se.ByteOffset, se.JSONPointer.Parent()), strictyaml.Quote(se.JSONPointer.LastToken(), maxQuoted))
		case errors.Is(se.Err, io.ErrUnexpectedEOF):
			return fmt.Sprintf("%s: the request ends inside a value", at(int64(len(body)), ""))
		}
		return fmt.Sprintf("%s: %s", at(se.ByteOffset, se.JSONPointer), strings.TrimPrefix(se.Err.Error(), "jsontext: "))
	}
	if se, ok := errors.AsType[*json.SemanticError](err); ok {
		if errors.Is(se.Err, json.ErrUnknownName) {
			return fmt.Sprintf("%s: unknown key %s (keys are matched exactly, case included)", at(se.ByteOffset, se.JSONPointer.Parent()), strictyaml.Quote(se.JSONPointer.LastToken(), maxQuoted))
		}
		got := strictjson.KindName(se.JSONKind)
		if len(se.JSONValue) > 0 && (se.JSONKind == '0' || se.JSONKind == '"') {
			got += " " + strictyaml.Quote(string(se.JSONValue), maxQuoted)
		}
		return fmt.Sprintf("%s: %s where %s belongs", at(se.ByteOffset, se.JSONPointer), got, typeName(se.GoType))
	}
	return err.Error()
}

// position returns "line L, column C" of byte offset off in body (1-based;
// a column counts bytes).
func position(body []byte, off int64) string {
	off = min(max(off, 0), int64(len(body)))
	line := 1 + bytes.Count(body[:off], []byte{'\n'})
	col := int(off) - bytes.LastIndexByte(body[:off], '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// typeName says in words what a Go type reads.
func typeName(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		if t.Bits() == 32 { // an int where int has 32 bits (386, arm)
			return "a whole number from -2^31 to 2^31-1"
		}
		return "a whole number from -2^63 to 2^63-1"
	case reflect.Uint64:
		return "a whole number from 0 to 2^64-1"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}

// initSeed reads the query of GET .../init: seed once, nothing else. ok
// false with no error means no seed was given.
func initSeed(r *http.Request) (seed string, ok bool, rerr *requestError) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return "", false, &requestError{http.StatusBadRequest, "the query does not parse: " + err.Error()}
	}
	for k, v := range q {
		switch {
		case k != "seed":
			return "", false, &requestError{http.StatusBadRequest, "unknown parameter " + strictyaml.Quote(k, maxQuoted) + "; init takes seed alone"}
		case len(v) > 1:
			return "", false, &requestError{http.StatusBadRequest, "seed is given more than once"}
		}
	}
	return q.Get("seed"), q.Has("seed"), nil
}
