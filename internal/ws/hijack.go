package ws

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
)

// Buffer sizes of an upgraded connection. The HTTP server hands over a 4 KiB
// reader and a 4 KiB writer with the hijacked connection, which the socket
// library keeps for the socket's life: 8 KiB of every idle socket. A client
// frame is an action of a few dozen bytes (at most MaxMessageBytes, which a
// read larger than the buffer takes straight from the connection), so a
// small read buffer costs a frame nothing but what it is. The write buffer
// holds no more than a frame's header: a frameConn under it puts every
// frame on the wire in one write.
const (
	readBufferSize  = 512
	writeBufferSize = 16
)

// smallBuffers is a ResponseWriter whose Hijack hands over the connection
// with buffers of the sizes above (the bytes the client sent after the
// request, if any, are read first).
type smallBuffers struct {
	http.ResponseWriter
}

// Hijack implements http.Hijacker.
func (w smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return c, brw, err
	}
	if brw.Writer.Buffered() > 0 { // the 101 response, should the server have buffered it
		if err := brw.Writer.Flush(); err != nil {
			c.Close()
			return nil, nil, err
		}
	}
	br := bufio.NewReaderSize(c, readBufferSize)
	if n := brw.Reader.Buffered(); n > 0 {
		// Bytes the client sent after the request: they go into the new
		// reader's buffer, not behind it, since the socket library takes
		// what is buffered and puts the connection itself behind it.
		early, _ := brw.Reader.Peek(n)
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(early)), c), max(readBufferSize, n))
		if _, err := br.Peek(n); err != nil {
			c.Close()
			return nil, nil, err
		}
	}
	return c, bufio.NewReadWriter(br, bufio.NewWriterSize(newFrameConn(c), writeBufferSize)), nil
}

// frameConn is the connection under the socket library's write buffer. The
// library writes a frame through that buffer in pieces as it fills and
// empties (with 16 bytes: the header and the payload's first bytes, then
// the rest of the payload). frameConn reads each frame's length from its
// header (RFC 6455, whatever the library) and writes the frame once it has
// all of it: one system call per frame (writev of the two pieces on TCP,
// so the payload is not copied), with a buffer of a few bytes kept between
// frames instead of one the size of the largest frame. It takes the bytes
// however they are cut; what it relies on is that every byte of every
// frame the library sends passes through the buffer handed over at the
// hijack, frame after frame. TestLibraryWritesEachFrameOnce holds the
// library of go.mod to that: a version that wrote past the buffer would
// put a frame on the wire in several writes, and fail it.
//
// A plain buffer instead (no frameConn) would cost every idle socket its
// size, and a frame larger than it two writes (docs/performance.md, "An
// idle socket").
type frameConn struct {
	net.Conn
	vec   bool   // the connection writes net.Buffers in one call
	pend  []byte // the current frame's bytes not yet written
	total int    // the current frame's length, once its header is in pend
	bufs  net.Buffers
	two   [2][]byte
}

// The most room pend keeps between frames.
const keepPend = 64

func newFrameConn(c net.Conn) *frameConn {
	_, vec := c.(*net.TCPConn)
	if !vec {
		_, vec = c.(*net.UnixConn)
	}
	return &frameConn{Conn: c, vec: vec}
}

// Write takes the next bytes of the frames being written; it writes to the
// connection each time a frame is complete.
func (c *frameConn) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if c.total == 0 {
			t, ok := frameLength(c.pend, p)
			if !ok { // the header is not complete yet
				c.pend = append(c.pend, p...)
				return n, nil
			}
			c.total = t
		}
		rest := c.total - len(c.pend)
		if len(p) < rest {
			c.pend = append(c.pend, p...)
			return n, nil
		}
		if err := c.send(p[:rest]); err != nil {
			return 0, err
		}
		p, c.total = p[rest:], 0
	}
	return n, nil
}

// send writes pend and then tail, the end of the frame, in one call.
func (c *frameConn) send(tail []byte) error {
	var err error
	switch {
	case len(c.pend) == 0:
		_, err = c.Conn.Write(tail)
	case c.vec:
		c.two = [2][]byte{c.pend, tail}
		c.bufs = c.two[:]
		_, err = c.bufs.WriteTo(c.Conn)
		c.two = [2][]byte{}
	default:
		c.pend = append(c.pend, tail...)
		_, err = c.Conn.Write(c.pend)
	}
	c.pend = emptied(c.pend, keepPend)
	return err
}

// frameLength returns the length of the frame that starts at a followed by
// b (header and payload, RFC 6455 section 5.2), or false when they do not
// hold its whole header yet.
func frameLength(a, b []byte) (int, bool) {
	at := func(i int) byte {
		if i < len(a) {
			return a[i]
		}
		return b[i-len(a)]
	}
	have := len(a) + len(b)
	if have < 2 {
		return 0, false
	}
	b1 := at(1)
	head, n := 2, int(b1&0x7f)
	switch n {
	case 126:
		head += 2
	case 127:
		head += 8
	}
	if b1&0x80 != 0 {
		head += 4 // the masking key
	}
	if have < head {
		return 0, false
	}
	switch n {
	case 126:
		n = int(at(2))<<8 | int(at(3))
	case 127:
		n = 0
		for i := 2; i < 10; i++ {
			n = n<<8 | int(at(i))
		}
	}
	return head + n, true
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }
