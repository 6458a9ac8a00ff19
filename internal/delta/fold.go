// Package delta folds the events of the socket protocol 2 into game views:
// a view decoded from JSON and an event's "d" (what the event changed, as
// live.View.AppendDelta writes it) give the view after the event. Clients
// of the protocol written in Go use it (the load tool, the tests);
// web/js/fold.js is the same for the browser.
//
// A delta is an object whose keys name what changed:
//
//	w, s        the waste ([keep, card…]) and the stock count
//	fN          foundation N ([keep, item…])
//	cN, dN      column N's face-up cards ([keep, card…]) and face-down count
//	1x, 2x      in a race, the same keys inside seat 1 or 2, and 1n/2n its
//	            count, 1b/2b blocked, 1p/2p its player
//	any other   the view's top-level key of that name, set to the value
//
// A pile value [keep, item…] keeps the first keep items of the pile and
// puts the rest on top.
package delta

import (
	"errors"
	"fmt"
	"strconv"
)

// Fold applies delta d of the event at seq to view, in place: the view's
// seq becomes seq. A delta that does not fit the view (a pile or a seat it
// does not have, a keep beyond a pile's length) is an error, and the view
// may then be half changed: the client should fetch the view again.
func Fold(view map[string]any, seq int64, d map[string]any) error {
	view["seq"] = float64(seq)
	for k, v := range d {
		obj, name := view, k
		if len(k) >= 2 && (k[0] == '1' || k[0] == '2') && k[1] >= 'a' && k[1] <= 'z' {
			seat, err := item(view["seats"], int(k[0]-'0'))
			if err != nil {
				return fmt.Errorf("delta %s: %w", k, err)
			}
			if obj, err = object(seat); err != nil {
				return fmt.Errorf("delta %s: %w", k, err)
			}
			name = k[1:]
		}
		if err := set(view, obj, name, k, v); err != nil {
			return fmt.Errorf("delta %s: %w", k, err)
		}
	}
	return nil
}

// set applies one member of a delta; obj is the view or a seat.
func set(view, obj map[string]any, name, key string, v any) error {
	var err error
	switch name {
	case "w":
		obj["waste"], err = splice(obj["waste"], v)
		return err
	case "s":
		obj["stock"] = v
		return nil
	case "n":
		obj["count"] = v
		return nil
	case "b":
		obj["blocked"] = v
		return nil
	case "p":
		obj["player"] = v
		return nil
	}
	if len(name) == 2 && name[1] >= '1' && name[1] <= '9' {
		n := int(name[1] - '0')
		switch name[0] {
		case 'f':
			piles, ok := view["foundations"].([]any)
			if !ok || n > len(piles) {
				return errors.New("no such foundation")
			}
			piles[n-1], err = splice(piles[n-1], v)
			return err
		case 'c', 'd':
			c, err := item(obj["columns"], n)
			if err != nil {
				return err
			}
			col, err := object(c)
			if err != nil {
				return err
			}
			if name[0] == 'd' {
				col["down"] = v
				return nil
			}
			col["up"], err = splice(col["up"], v)
			return err
		}
	}
	if key != name {
		return errors.New("no such key of a seat")
	}
	view[key] = v
	return nil
}

// item returns element n (1-based) of a JSON array.
func item(list any, n int) (any, error) {
	l, ok := list.([]any)
	if !ok || n < 1 || n > len(l) {
		return nil, errors.New("no such element " + strconv.Itoa(n))
	}
	return l[n-1], nil
}

func object(v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not an object")
	}
	return m, nil
}

// splice keeps the first keep items of a pile and appends the rest of
// [keep, item…].
func splice(pile, v any) (any, error) {
	p, ok := pile.([]any)
	op, ok2 := v.([]any)
	if !ok || !ok2 || len(op) == 0 {
		return nil, errors.New("not a pile change")
	}
	keep, ok := op[0].(float64)
	if !ok || keep < 0 || keep > float64(len(p)) || keep != float64(int(keep)) {
		return nil, errors.New("keep is not a count of the pile's cards")
	}
	out := append(make([]any, 0, int(keep)+len(op)-1), p[:int(keep)]...)
	return append(out, op[1:]...), nil
}

// GameState removes from a view decoded from JSON what is not game state at
// a seq, which deltas do not carry: presence and clocks travel in their own
// messages.
func GameState(view map[string]any) map[string]any {
	for _, k := range []string{"claimAt", "turnDeadline", "graceSeconds"} {
		delete(view, k)
	}
	if seats, ok := view["seats"].([]any); ok {
		for _, s := range seats {
			if m, ok := s.(map[string]any); ok {
				delete(m, "online")
				delete(m, "claimAt")
			}
		}
	}
	return view
}
