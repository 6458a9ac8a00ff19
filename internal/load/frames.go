package load

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	viewdelta "dsol/internal/delta"
	"dsol/internal/load/client"
)

// answer is an ack or a reject frame.
type answer struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Seq   int64  `json:"seq"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// The prefixes and keys of the server's messages that read matches
// without decoding them.
var (
	eventPrefix = []byte(`{"type":"event","seq":`)
	statePrefix = []byte(`{"type":"state","seq":`)
	overPrefix  = []byte(`{"type":"over"`)
	ackPrefix   = []byte(`{"type":"ack","id":"`)
	seqKey      = []byte(`","seq":`)
	gameKey     = []byte(`,"game":{`)
	deltaKey    = []byte(`,"d":{`)
)

// read reads one frame of race g: one message, or in protocol 2 a JSON
// array of them. Views are kept (the newest), an "over" notice marks the
// race over; an ack or a reject is returned, anything else gives nil.
func (s *raceSeat) read(ctx context.Context, g *raceGame) (*answer, error) {
	_, r, err := s.conn.Reader(ctx)
	if err == nil {
		s.buf.Reset()
		_, err = s.buf.ReadFrom(r)
	}
	if err != nil {
		return nil, client.WSError(ctx, err)
	}
	data := s.buf.Bytes()
	s.frames++
	if len(data) == 0 || data[0] != '[' {
		return s.message(g, data)
	}
	msgs, err := messagesOf(data, s.msgs[:0])
	if err != nil {
		return nil, err
	}
	s.msgs = msgs
	var ans *answer
	for _, m := range msgs {
		a, err := s.message(g, m)
		if err != nil {
			return nil, err
		}
		if a != nil {
			ans = a // a closed loop has one answer outstanding
		}
	}
	clear(s.msgs)
	return ans, nil
}

// messagesOf appends the messages of a protocol 2 frame, a JSON array, to
// out: split by splitArray, else decoded.
func messagesOf(data []byte, out [][]byte) ([][]byte, error) {
	msgs, ok := splitArray(data, out)
	if ok {
		return msgs, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return out, &client.Error{Code: "bad_frame", Message: err.Error()}
	}
	msgs = out // without what the split took before it gave up
	for _, m := range raw {
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// splitArray appends the elements of a JSON array of objects to out, as
// json.Unmarshal into []json.RawMessage would for valid JSON; it reports
// false for any other frame (another kind of element, or not an array it
// can follow), which the caller then decodes in full. It follows strings and
// nesting only, so it may split some invalid JSON (brackets that do not
// match) that json would refuse: each message is decoded, or matched by its
// prefix, on its own.
func splitArray(data []byte, out [][]byte) ([][]byte, bool) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return out, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return out, skipSpace(data, i+1) == len(data)
	}
	for {
		if i >= len(data) || data[i] != '{' {
			return out, false
		}
		start, depth, inString := i, 0, false
		for ; i < len(data); i++ {
			c := data[i]
			switch {
			case inString && c == '\\':
				i++ // the escaped byte
			case c == '"':
				inString = !inString
			case inString:
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if i >= len(data) {
			return out, false
		}
		out = append(out, data[start:i+1])
		i = skipSpace(data, i+1)
		switch {
		case i < len(data) && data[i] == ',':
			i = skipSpace(data, i+1)
		case i < len(data) && data[i] == ']':
			return out, skipSpace(data, i+1) == len(data)
		default:
			return out, false
		}
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// message handles one server message.
func (s *raceSeat) message(g *raceGame, data []byte) (*answer, error) {
	switch {
	case bytes.HasPrefix(data, eventPrefix):
		s.eventBytes = append(s.eventBytes, len(data))
		s.keepView(data, data[len(eventPrefix):])
		return nil, nil
	case bytes.HasPrefix(data, statePrefix):
		s.keepView(data, data[len(statePrefix):])
		return nil, nil
	case bytes.HasPrefix(data, overPrefix):
		g.over.Store(true)
		return nil, nil
	}
	if a, ok := parseAck(data); ok {
		return a, nil
	}
	var a answer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, &client.Error{Code: "bad_frame", Message: err.Error()}
	}
	switch a.Type {
	case "ack", "reject":
		return &a, nil
	case "event", "state": // fields in another order than expected
		if a.Type == "event" {
			s.eventBytes = append(s.eventBytes, len(data))
		}
		s.keepView(data, nil)
	}
	return nil, nil
}

// parseAck reads an ack as the server writes it, {"type":"ack","id":"…",
// "seq":N}; it reports false for anything else (a duplicate's flag, an id
// with escapes, another order), which the caller decodes in full.
func parseAck(data []byte) (*answer, bool) {
	rest, ok := bytes.CutPrefix(data, ackPrefix)
	if !ok {
		return nil, false
	}
	id, rest, ok := bytes.Cut(rest, seqKey)
	if !ok || bytes.ContainsAny(id, `"\\`) || len(rest) < 2 || rest[len(rest)-1] != '}' {
		return nil, false
	}
	seq, err := strconv.ParseInt(string(rest[:len(rest)-1]), 10, 64)
	if err != nil || seq < 0 {
		return nil, false
	}
	return &answer{Type: "ack", ID: string(id), Seq: seq}, true
}

// keepView keeps a frame that may carry a view; rest is the frame after
// `"seq":`, or nil to find the seq by decoding the whole frame.
func (s *raceSeat) keepView(data, rest []byte) {
	if s.cfg.drawsOnly() && s.viewSeq >= 0 {
		// The race and arena modes keep their own counts: it needs only its first
		// view (dial), and reads it over HTTP again after a reject.
		return
	}
	seq := int64(-1)
	if rest != nil {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if n, err := strconv.ParseInt(string(rest[:i]), 10, 64); err == nil {
			seq = n
		}
	}
	if seq < 0 {
		var m struct{ Seq int64 }
		if json.Unmarshal(data, &m) != nil {
			return
		}
		seq = m.Seq
	}
	switch {
	case seq < s.viewSeq:
	case bytes.Contains(data, gameKey):
		s.viewSeq, s.viewData, s.deltas, s.base = seq, append(s.viewData[:0], data...), s.deltas[:0], nil
	case seq == s.viewSeq+1 && bytes.Contains(data, deltaKey):
		s.viewSeq, s.deltas = seq, append(s.deltas, bytes.Clone(data))
		if len(s.deltas) >= 256 { // bound what waits
			s.fold()
		}
	}
}

// fold folds the waiting deltas into the view.
func (s *raceSeat) fold() error {
	if len(s.deltas) == 0 {
		return nil
	}
	if s.base == nil {
		var f struct{ Game map[string]any }
		if err := json.Unmarshal(s.viewData, &f); err != nil || f.Game == nil {
			return &client.Error{Code: "bad_frame", Message: "a state without its game"}
		}
		s.base, s.viewData = f.Game, nil
	}
	for _, data := range s.deltas {
		var ev struct {
			Seq int64
			D   map[string]any
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return &client.Error{Code: "bad_frame", Message: err.Error()}
		}
		if err := viewdelta.Fold(s.base, ev.Seq, ev.D); err != nil {
			return &client.Error{Code: "bad_delta", Message: err.Error()}
		}
	}
	s.deltas = s.deltas[:0]
	return nil
}

// view waits for a view at least as new as the seat's last ack and decodes
// it.
func (s *raceSeat) view(ctx context.Context, g *raceGame) (*playView, error) {
	for s.viewSeq < s.acked {
		if _, err := s.read(ctx, g); err != nil {
			return nil, err
		}
	}
	if err := s.fold(); err != nil {
		return nil, err
	}
	var f struct{ Game playView }
	if s.base != nil {
		b, err := json.Marshal(s.base)
		if err != nil {
			return nil, &client.Error{Code: "bad_frame", Message: err.Error()}
		}
		if err := json.Unmarshal(b, &f.Game); err != nil {
			return nil, &client.Error{Code: "bad_frame", Message: err.Error()}
		}
		return &f.Game, nil
	}
	if err := json.Unmarshal(s.viewData, &f); err != nil {
		return nil, &client.Error{Code: "bad_frame", Message: err.Error()}
	}
	return &f.Game, nil
}
