package httpapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"dsol/internal/cards"
	"dsol/internal/game"
	"dsol/internal/input"
	"dsol/internal/players"
	"dsol/internal/service"
)

// The request bodies of the API, each read by a pure function from the raw
// body to the checked request, so that the handlers only act and the fuzz
// targets (decode_fuzz_test.go) reach every decoder without a server.

// readBody reads the whole request body; limitBody bounds it (an
// *http.MaxBytesError becomes too_large in server.error).
func readBody(r *http.Request) ([]byte, error) { return io.ReadAll(r.Body) }

// jsonSpace is the white space of JSON (RFC 8259): a body of nothing else is
// empty.
const jsonSpace = " \t\r\n"

// decodeJSON reads a JSON body strictly into v: JSON that input.CheckJSON
// refuses (invalid UTF-8, a key twice, anything after the value) and unknown
// fields are errors. An empty body leaves v as it is when allowEmpty.
func decodeJSON(b []byte, v any, allowEmpty bool) error {
	if len(bytes.Trim(b, jsonSpace)) == 0 {
		if allowEmpty {
			return nil
		}
		return game.Errorf(game.BadRequest, "the request needs a JSON body")
	}
	if err := input.CheckJSON(b); err != nil {
		return game.Errorf(game.BadRequest, "the body is not valid JSON: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return game.Errorf(game.BadRequest, "the body is not valid JSON for this request: %s", input.Describe(err))
	}
	return nil
}

// maxName is the longest player name, in characters.
const maxName = 24

// checkName validates the form of a player name: 1 to 24 printable
// characters, not blank. The naming rules (the deny-list, the reserved
// names and their look-alikes) are the players service's (CheckName).
func checkName(name string) error {
	n := utf8.RuneCountInString(name)
	if !utf8.ValidString(name) || n < 1 || n > maxName {
		return game.Errorf(game.BadRequest, "a name has 1 to %d characters", maxName)
	}
	for _, c := range name {
		if !unicode.IsPrint(c) {
			return game.Errorf(game.BadRequest, "a name has printable characters only")
		}
	}
	if strings.TrimSpace(name) == "" {
		return game.Errorf(game.BadRequest, "a name cannot be blank")
	}
	return nil
}

// nameRequest is the body of POST /api/v1/players and PATCH /api/v1/me.
type nameRequest struct {
	Name *string `json:"name"`
}

// decodeName reads {"name"}: for PATCH /api/v1/me (required) the name must
// be there; for POST /api/v1/players the body and the name are optional
// (given reports whether a name came).
func decodeName(body []byte, required bool) (name string, given bool, err error) {
	var in nameRequest
	if err := decodeJSON(body, &in, !required); err != nil {
		return "", false, err
	}
	if in.Name == nil {
		if required {
			return "", false, game.Errorf(game.BadRequest, "nothing to change: send {\"name\": ...}")
		}
		return "", false, nil
	}
	if err := checkName(*in.Name); err != nil {
		return "", false, err
	}
	return *in.Name, true, nil
}

// linkRequest is the body of POST /api/v1/link.
type linkRequest struct {
	Code *string `json:"code"`
}

// decodeLinkCode reads {"code"}: a transfer code as typed, returned in its
// normal form (players.NormalLinkCode).
func decodeLinkCode(body []byte) (string, error) {
	var in linkRequest
	if err := decodeJSON(body, &in, false); err != nil {
		return "", err
	}
	if in.Code == nil {
		return "", game.Errorf(game.BadRequest, `send {"code": "…"}, the transfer code shown on the other device`)
	}
	return players.NormalLinkCode(*in.Code)
}

// The words of the deal options of a new game or race: the draws a code
// takes, and for each of scoring, redeal and decks its words in order, the
// first the default, each setting its flag of the code (Vegas, Single,
// Mirrored) or not. The decoders read them, and the tests of openapi.json
// check its enums against them.
var (
	draws    = []int{1, 3}
	scorings = []flagWord{{"normal", false}, {"vegas", true}}
	redeals  = []flagWord{{"unlimited", false}, {"single", true}}
	decks    = []flagWord{{"independent", false}, {"mirrored", true}}
)

// flagWord is a word of a deal option and whether it sets the option's flag
// of the code.
type flagWord struct {
	word string
	set  bool
}

// readDraw checks a requested draw against draws.
func readDraw(draw int) (int, error) {
	if !slices.Contains(draws, draw) {
		words := make([]string, len(draws))
		for i, d := range draws {
			words[i] = strconv.Itoa(d)
		}
		return 0, game.Errorf(game.BadRequest, "draw must be %s", oneOf(words, false))
	}
	return draw, nil
}

// readFlag returns the flag that word, the value of the option key, sets,
// or a bad_request naming the option's words.
func readFlag(key string, words []flagWord, word string) (bool, error) {
	names := make([]string, len(words))
	for i, w := range words {
		if w.word == word {
			return w.set, nil
		}
		names[i] = w.word
	}
	return false, game.Errorf(game.BadRequest, "%s must be %s", key, oneOf(names, true))
}

// oneOf lists words as `a, b or c`, each in double quotes with quote.
func oneOf(words []string, quote bool) string {
	if quote {
		q := make([]string, len(words))
		for i, w := range words {
			q[i] = strconv.Quote(w)
		}
		words = q
	}
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// gameRequest is the body of POST /api/v1/games.
type gameRequest struct {
	Draw     *int    `json:"draw"`
	Scoring  *string `json:"scoring"`
	Winnable bool    `json:"winnable"`
	Code     *string `json:"code"`
}

// gameSpec is a checked POST /api/v1/games: the game's code; with random,
// the server draws its deal (code.Deal is then 0), among the winnable deals
// with winnable.
type gameSpec struct {
	code     cards.Code
	random   bool
	winnable bool
}

// table is the spec as the game service takes it.
func (s gameSpec) table() service.SoloSpec {
	return service.SoloSpec{Code: s.code, Random: s.random, Winnable: s.winnable}
}

// decodeCreateGame reads {"draw", "scoring", "winnable"} (each optional) or
// {"code"}.
func decodeCreateGame(body []byte) (gameSpec, error) {
	var in gameRequest
	if err := decodeJSON(body, &in, true); err != nil {
		return gameSpec{}, err
	}
	if in.Code != nil {
		if in.Draw != nil || in.Scoring != nil {
			return gameSpec{}, game.Errorf(game.BadRequest, "send either a code or draw and scoring, not both")
		}
		if in.Winnable {
			return gameSpec{}, game.Errorf(game.BadRequest, "winnable goes with draw and scoring: a chosen code is played as it is")
		}
		c, err := cards.ParseCode(*in.Code)
		if err != nil {
			return gameSpec{}, err
		}
		if c.Kind != cards.Solo {
			return gameSpec{}, game.Errorf(game.BadCode, "%s is a race code; solo games take DS1 codes", c)
		}
		return gameSpec{code: c}, nil
	}
	code := cards.Code{Kind: cards.Solo, Draw: draws[0]}
	var err error
	if in.Draw != nil {
		if code.Draw, err = readDraw(*in.Draw); err != nil {
			return gameSpec{}, err
		}
	}
	if in.Scoring != nil {
		if code.Vegas, err = readFlag("scoring", scorings, *in.Scoring); err != nil {
			return gameSpec{}, err
		}
	}
	return gameSpec{code: code, random: true, winnable: in.Winnable}, nil
}

// raceRequest is the body of POST /api/v1/races.
type raceRequest struct {
	Code         *string `json:"code"`
	Draw         *int    `json:"draw"`
	Redeal       *string `json:"redeal"`
	Decks        *string `json:"decks"`
	Turns        *string `json:"turns"`
	First        *string `json:"first"`
	SoloOutBonus bool    `json:"soloOutBonus"`
	Series       *int    `json:"series"`
	Public       *bool   `json:"public"`
	TurnSeconds  int     `json:"turnSeconds"`
	Bot          *string `json:"bot"`
}

// raceSpec is a checked POST /api/v1/races: the code (with random, the
// server draws its deal), the options before the first seat is drawn, and
// whether the race is listed in the lobby.
type raceSpec struct {
	code   cards.Code
	random bool
	opts   game.RaceOptions
	public bool
}

// table is the spec as the game service takes it.
func (s raceSpec) table() service.RaceSpec {
	return service.RaceSpec{Code: s.code, Random: s.random, Options: s.opts, Public: s.public}
}

// raceCode reads the code or the draw, redeal and decks of a request; random
// reports that no code was given, so the deal is the server's to draw.
func raceCode(in raceRequest) (code cards.Code, random bool, err error) {
	if in.Code != nil {
		if in.Draw != nil || in.Redeal != nil || in.Decks != nil {
			return cards.Code{}, false, game.Errorf(game.BadRequest, "send either a code or draw, redeal and decks, not both")
		}
		c, err := cards.ParseCode(*in.Code)
		if err != nil {
			return cards.Code{}, false, err
		}
		if c.Kind != cards.Race || !c.Valid() {
			return cards.Code{}, false, game.Errorf(game.BadCode, "%s is not a race code; races take DR1 or DR2 codes", c)
		}
		return c, false, nil
	}
	code = cards.Code{Kind: cards.Race, Draw: draws[0]}
	if in.Draw != nil {
		if code.Draw, err = readDraw(*in.Draw); err != nil {
			return code, false, err
		}
	}
	if in.Redeal != nil {
		if code.Single, err = readFlag("redeal", redeals, *in.Redeal); err != nil {
			return code, false, err
		}
	}
	if in.Decks != nil {
		if code.Mirrored, err = readFlag("decks", decks, *in.Decks); err != nil {
			return code, false, err
		}
	}
	return code, true, nil
}

// decodeCreateRace reads and checks the body of POST /api/v1/races. A race
// against the server's bot is never public.
func decodeCreateRace(body []byte) (raceSpec, error) {
	var in raceRequest
	if err := decodeJSON(body, &in, true); err != nil {
		return raceSpec{}, err
	}
	return checkRace(in)
}

// decodeMatch reads and checks the body of POST /api/v1/match: the options
// of POST /api/v1/races but code (a quick match is dealt by the server), bot
// (it is against a person) and public (it is never listed in the lobby),
// which are refused.
func decodeMatch(body []byte) (raceSpec, error) {
	var in raceRequest
	if err := decodeJSON(body, &in, true); err != nil {
		return raceSpec{}, err
	}
	switch {
	case in.Code != nil:
		return raceSpec{}, game.Errorf(game.BadRequest, "a quick match is dealt by the server: send draw, redeal and decks, not a code")
	case in.Bot != nil:
		return raceSpec{}, game.Errorf(game.BadRequest, "a quick match is against a person: create a race with bot to play the computer")
	case in.Public != nil:
		return raceSpec{}, game.Errorf(game.BadRequest, "a quick match is never listed in the lobby: leave out public")
	}
	return checkRace(in)
}

// checkRace checks a decoded request for a new race.
func checkRace(in raceRequest) (raceSpec, error) {
	code, random, err := raceCode(in)
	if err != nil {
		return raceSpec{}, err
	}
	o := game.RaceOptions{Turns: game.Simultaneous, First: game.FirstRandom, SoloOutBonus: in.SoloOutBonus, Series: 1, TurnSeconds: in.TurnSeconds}
	if in.Turns != nil {
		o.Turns = *in.Turns
	}
	if in.First != nil {
		o.First = *in.First
	}
	if in.Series != nil {
		o.Series = *in.Series
	}
	if err := o.Check(); err != nil {
		return raceSpec{}, err
	}
	public := true
	if in.Public != nil {
		public = *in.Public
	}
	if in.Bot != nil {
		if err := service.CheckBot(*in.Bot); err != nil {
			return raceSpec{}, err
		}
		o.Bot = *in.Bot
		public = false
	}
	return raceSpec{code: code, random: random, opts: o, public: public}, nil
}

// joinRequest is the body of POST /api/v1/races/{id}/join.
type joinRequest struct {
	Invite *string `json:"invite"`
}

// decodeJoin reads {"invite"}; the body and the invite are optional (a
// public race needs none).
func decodeJoin(body []byte) (*string, error) {
	var in joinRequest
	if err := decodeJSON(body, &in, true); err != nil {
		return nil, err
	}
	return in.Invite, nil
}

// checkRequest is the body of POST /api/v1/games/{id}/check.
type checkRequest struct {
	On *bool `json:"on"`
}

// decodeCheck reads {"on": true}. The check is never turned off: once its
// answers were shown the game counts as assisted, and a client that no
// longer wants them stops showing them.
func decodeCheck(body []byte) error {
	var in checkRequest
	if err := decodeJSON(body, &in, false); err != nil {
		return err
	}
	if in.On == nil {
		return game.Errorf(game.BadRequest, `send {"on": true} to turn the check on`)
	}
	if !*in.On {
		return game.Errorf(game.BadRequest, "the check cannot be turned off once on: the game counts as assisted; stop showing its answers instead")
	}
	return nil
}
