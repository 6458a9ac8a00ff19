package ws

import (
	"context"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"dsol/internal/game"
	"dsol/internal/metrics"
	"dsol/internal/protocol"
)

// connection is what a game session and a lobby session share of an open
// socket: its life, the queue of answers, the client-frame limits, the
// close-once, the heartbeat and the writes within the write timeout.
type connection struct {
	ws      *websocket.Conn
	cfg     *Config
	metrics *metrics.Metrics
	clock   func() time.Time

	ctx    context.Context // the session's life; never the request's
	cancel context.CancelFunc
	out    outbox // answers to this client: ack, reject, pong, a queued close

	limit   *rate.Limiter // client frames
	strikes *rate.Limiter // refused frames before the socket is closed

	// dropEnded has the heartbeat drop the connection on a failed ping even
	// once the session has ended (the lobby's); else a ping that failed
	// because the session ended leaves the connection to run.
	dropEnded bool

	ending    bool         // the read loop ignores frames: a close is queued
	in        []byte       // the read loop's frame (see read)
	pinging   atomic.Bool  // a ping waits for its pong
	writing   atomic.Int64 // when the write under way began (Unix ns), or 0
	closeOnce sync.Once
	bg        sync.WaitGroup // closes started from the writer or the reader
}

func newConnection(c *websocket.Conn, cfg *Config, m *metrics.Metrics, clock func() time.Time) *connection {
	ctx, cancel := context.WithCancel(context.Background())
	return &connection{
		ws: c, cfg: cfg, metrics: m, clock: clock,
		ctx: ctx, cancel: cancel,
		out:     outbox{max: cfg.SendQueue},
		limit:   rate.NewLimiter(rate.Limit(cfg.MessageRate), cfg.MessageBurst),
		strikes: rate.NewLimiter(1, cfg.MaxStrikes),
	}
}

// The read loop's buffer starts with room for minIn bytes, grows only when
// a frame fills it, and is let go before the next read once it is larger
// than keepIn: a client's frames are actions of a hundred bytes or so, and
// an idle socket should hold no more than that.
const minIn, keepIn = 128, 1 << 10

// read reads the client's next frame, for the read loop. The bytes are the
// connection's until the next read: what is kept of a frame is copied (the
// decoded frame holds strings and values only). Closing the socket ends it:
// no context timer per read.
func (c *connection) read() (websocket.MessageType, []byte, error) {
	if cap(c.in) > keepIn {
		c.in = nil
	}
	typ, r, err := c.ws.Reader(context.Background())
	if err != nil {
		return typ, nil, err
	}
	b := c.in[:0]
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, max(minIn, cap(b)))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			c.in = b
			return typ, b, nil
		case err != nil:
			return typ, nil, err
		}
	}
}

// close ends the socket with a close code (once; later calls do nothing).
// It may block for the close handshake, a few seconds at most.
func (c *connection) close(code int, reason string) {
	c.closeOnce.Do(func() {
		c.ws.Close(websocket.StatusCode(code), reason)
	})
}

func (c *connection) closeNow() { c.ws.CloseNow() }

// revoke ends the socket of a token that no longer signs its player in: the
// session ends at once (its read loop hands nothing more on, its writer
// writes nothing more) and the socket closes with CloseSignedOut.
func (c *connection) revoke() {
	c.cancel()
	go c.close(protocol.CloseSignedOut, "signed out")
}

// closeAsync closes the socket without waiting for the handshake; run waits
// for it before returning.
func (c *connection) closeAsync(code int, reason string) {
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		c.close(code, reason)
	}()
}

// serve runs the read loop until the socket closes, then ends the session:
// it cancels the session's context, waits for the writer to see it (end
// tells it and returns what is closed once it has stopped) and for the
// closes under way, and drops the connection. A feed's writer is a
// goroutine beside the read loop (run); a game session's runs on demand
// (session.start).
func (c *connection) serve(readLoop func(), end func() <-chan struct{}) {
	readLoop()
	c.cancel()
	<-end()
	c.bg.Wait()
	c.ws.CloseNow()
}

// run serves a feed socket until it closes: the writer runs beside the read
// loop and drives the heartbeat with its own ticker (see beat).
func (c *connection) run(writer, readLoop func()) {
	done := make(chan struct{})
	go func() { defer close(done); writer() }()
	c.serve(readLoop, func() <-chan struct{} { return done })
}

// heartbeat returns a feed writer's ping ticker.
func (c *connection) heartbeat() *time.Ticker { return time.NewTicker(c.cfg.PingInterval) }

// beat pings the client, unless a ping is still out; no pong within the pong
// timeout closes the socket. The ping waits for its pong (which the read loop
// reads) on a goroutine of its own that lives only that long, so that the
// writer goes on writing meanwhile.
func (c *connection) beat() {
	if !c.pinging.CompareAndSwap(false, true) {
		return
	}
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		defer c.pinging.Store(false)
		ctx, cancel := context.WithTimeout(c.ctx, c.cfg.PongTimeout)
		err := c.ws.Ping(ctx)
		cancel()
		if err != nil && (c.dropEnded || c.ctx.Err() == nil) {
			c.ws.CloseNow() // no pong: the peer is gone
		}
	}()
}

// allow takes one client frame from the rate limit, reporting whether it
// may be handled.
func (c *connection) allow() bool { return c.limit.AllowN(c.clock(), 1) }

// strike takes one refused frame from the strike bucket, reporting whether
// the client may go on.
func (c *connection) strike() bool { return c.strikes.AllowN(c.clock(), 1) }

// slow drops a client that does not keep up: 1013 (try again later, the
// close code of "unavailable"), so that it reconnects and resumes.
func (c *connection) slow() {
	c.metrics.ObserveWSSlowDrop()
	c.closeAsync(protocol.CloseCode(game.Unavailable), "too slow")
}

// write writes one message as a frame and counts it.
func (c *connection) write(m outMsg) bool {
	if !c.writeFrame(m.body) {
		return false
	}
	c.count(m)
	return true
}

// writeFrame writes one text frame. The write timeout is kept by the
// handler's watchdog (sockets.watch), which drops a connection whose write
// has been going on too long: a context with a deadline would cost each
// write a timer.
func (c *connection) writeFrame(b []byte) bool {
	c.writing.Store(time.Now().UnixNano())
	err := c.ws.Write(context.Background(), websocket.MessageText, b)
	c.writing.Store(0)
	return err == nil
}

// overdue drops the connection when a write started before since (it has
// taken longer than the write timeout): a client that does not read.
func (c *connection) overdue(since int64) {
	if w := c.writing.Load(); w != 0 && w < since {
		c.metrics.ObserveWSSlowDrop()
		c.ws.CloseNow()
	}
}

// count counts a message written.
func (c *connection) count(m outMsg) {
	c.metrics.ObserveWSOut(m.typ)
	if m.typ == "reject" {
		c.metrics.ObserveWSReject(m.code)
	}
}
