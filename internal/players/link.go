package players

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
)

// A transfer code signs another device in as the player who asked for it:
// LinkLen symbols of Crockford's base32 alphabet (digits and capitals
// without I, L, O and U, which look like 1, 0 and V), so 60 random bits,
// shown as three groups of four (K7Q4-M2XD-9TPA), valid LinkTTL, used once.
// Only its SHA-256 is stored.
const (
	LinkAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	LinkLen      = 12
	LinkTTL      = 10 * time.Minute
)

// newLinkCode returns LinkLen random symbols of LinkAlphabet (60 bits).
func (s *Service) newLinkCode() (string, error) {
	var b [8]byte
	if _, err := io.ReadFull(s.random, b[:]); err != nil {
		return "", err
	}
	v := binary.LittleEndian.Uint64(b[:])
	c := make([]byte, LinkLen)
	for i := range c {
		c[i] = LinkAlphabet[v&31]
		v >>= 5
	}
	return string(c), nil
}

// GroupLinkCode writes a code as shown: groups of four joined by dashes.
func GroupLinkCode(c string) string {
	return c[:4] + "-" + c[4:8] + "-" + c[8:]
}

// NormalLinkCode reads a typed transfer code: any case, spaces and dashes
// ignored, O read as 0 and I and L as 1.
func NormalLinkCode(in string) (string, error) {
	var b strings.Builder
	for _, r := range strings.ToUpper(in) {
		switch r {
		case ' ', '-', '\t':
			continue
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		if r > 'Z' || !strings.ContainsRune(LinkAlphabet, r) || b.Len() >= LinkLen {
			return "", game.Errorf(game.BadRequest, "a transfer code has %d letters and digits, such as K7Q4-M2XD-9TPA", LinkLen)
		}
		b.WriteRune(r)
	}
	if b.Len() != LinkLen {
		return "", game.Errorf(game.BadRequest, "a transfer code has %d letters and digits, such as K7Q4-M2XD-9TPA", LinkLen)
	}
	return b.String(), nil
}

// NewLink gives a player a new transfer code, replacing the one they had,
// and returns it as shown (GroupLinkCode) and when it expires. The code is
// known only now: its hash is stored.
func (s *Service) NewLink(ctx context.Context, id string) (string, time.Time, error) {
	now := s.clock()
	for attempt := 0; ; attempt++ {
		code, err := s.newLinkCode()
		if err != nil {
			return "", time.Time{}, err
		}
		err = s.st.PutLinkCode(ctx, store.LinkCode{PlayerID: id, Hash: hashToken(code),
			Expires: now.Add(LinkTTL), CreatedAt: now})
		if err == nil {
			return GroupLinkCode(code), now.Add(LinkTTL), nil
		}
		if !errors.Is(err, store.ErrConflict) || attempt == 2 {
			return "", time.Time{}, err
		}
	}
}

// Redeem uses a transfer code (in its normal form, NormalLinkCode): it
// returns the id of its player and a new token that signs this device in
// as them. not_found for no such code, expired for one that expired or was
// used.
func (s *Service) Redeem(ctx context.Context, code string) (playerID, tok string, err error) {
	tok, hash, err := s.newToken()
	if err != nil {
		return "", "", err
	}
	c, err := s.st.RedeemLinkCode(ctx, hashToken(code), hash, s.clock())
	switch {
	case errors.Is(err, store.ErrNotFound):
		err = game.Errorf(game.NotFound, "no such transfer code: check it, or ask for a new one on the other device")
	case errors.Is(err, store.ErrConflict) && !c.UsedAt.IsZero():
		err = game.Errorf(game.Expired, "this transfer code was used already: ask for a new one on the other device")
	case errors.Is(err, store.ErrConflict):
		err = game.Errorf(game.Expired, "this transfer code has expired: ask for a new one on the other device")
	}
	if err != nil {
		return "", "", err
	}
	return c.PlayerID, tok, nil
}
