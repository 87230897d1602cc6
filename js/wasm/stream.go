package main

import "io"

// A stream is a JSON Lines batch given a chunk at a time (`verify -` in
// one process that lives long): a goroutine reads it with the kit's
// stream, its reader fed by push, and each push returns the verdicts of
// the lines it completed.
type stream struct {
	chunks chan []byte   // the chunks pushed, closed at the end
	wants  chan struct{} // the reader has used every chunk and waits for the next
	done   chan struct{} // the reader has returned
	rest   []byte        // the chunk being read
}

// Read gives the chunk being read, waiting for the next when it is used.
func (s *stream) Read(p []byte) (int, error) {
	for len(s.rest) == 0 {
		s.wants <- struct{}{}
		c, ok := <-s.chunks
		if !ok {
			return 0, io.EOF
		}
		s.rest = c
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}

// startStream begins a stream named name; the previous one, if any, is
// ended first.
func (k *kit) startStream(name string) {
	if k.cur != nil {
		k.endStream()
	}
	s := &stream{chunks: make(chan []byte), wants: make(chan struct{}), done: make(chan struct{})}
	k.cur = s
	k.out = k.out[:0]
	go func() {
		defer close(s.done)
		k.stream(name, s)
	}()
	<-s.wants // it reads nothing before the first chunk
}

// push hands the stream a chunk and sets k.out to the verdict lines of the
// lines it completed. The chunk is read before push returns.
func (k *kit) push(chunk []byte) {
	k.out = k.out[:0]
	if k.cur == nil || len(chunk) == 0 {
		return
	}
	k.cur.chunks <- chunk
	<-k.cur.wants
}

// endStream ends the stream and sets k.out to the verdict lines of what
// was left: a last line without its end.
func (k *kit) endStream() {
	k.out = k.out[:0]
	if k.cur == nil {
		return
	}
	close(k.cur.chunks)
	<-k.cur.done
	k.cur = nil
}
