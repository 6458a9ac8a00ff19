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
// read larger than the buffer takes straight from the connection), and a
// larger write than the buffer goes straight to the connection too, so
// small buffers cost a frame nothing but what it is.
const (
	readBufferSize  = 512
	writeBufferSize = 1024
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
	return c, bufio.NewReadWriter(br, bufio.NewWriterSize(c, writeBufferSize)), nil
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }
