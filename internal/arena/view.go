package arena

import (
	"encoding/json"
	"time"

	"dsol/internal/game"
	"dsol/internal/store"
)

// The statuses of an arena: before it starts, while it pairs, and from its
// end on (races still in play then finish and count: RacesInPlay).
const (
	Waiting = "waiting"
	Running = "running"
	Over    = "over"
)

// StatusAt is an arena's status at now.
func StatusAt(a store.Arena, now time.Time) string {
	switch {
	case now.Before(a.StartsAt):
		return Waiting
	case now.Before(a.EndsAt):
		return Running
	}
	return Over
}

// Redeal words an arena's redeal as the race options do.
func Redeal(single bool) string {
	if single {
		return "single"
	}
	return "unlimited"
}

// View is an arena as a player sees it (docs/protocol.md, "Arenas").
type View struct {
	ID          string    `json:"id"`
	Status      string    `json:"status"`
	StartsAt    time.Time `json:"startsAt"`
	EndsAt      time.Time `json:"endsAt"`
	Now         time.Time `json:"now"` // the server's clock, for countdowns
	Minutes     int       `json:"minutes"`
	Draw        int       `json:"draw"`
	Redeal      string    `json:"redeal"`
	Players     int       `json:"players"`
	Races       int       `json:"races"`       // races paired so far
	RacesInPlay int       `json:"racesInPlay"` // of them, still in play
	// Standings are best first (the first three the podium once over): all
	// of them over REST, the top TopRows plus the receiver's own row over
	// the arena socket.
	Standings []Row `json:"standings"`
	// You is the receiver's place in the arena; absent for a player who has
	// not joined it.
	You *You `json:"you,omitempty"`
}

// Row is a player in the standings.
type Row struct {
	Rank    int            `json:"rank"`
	Player  game.PlayerRef `json:"player"`
	Score   int            `json:"score"`
	Races   int            `json:"races"`
	Wins    int            `json:"wins"`
	Streak  int            `json:"streak"`
	Fire    bool           `json:"fire"` // the next win is worth StreakWinPoints
	Playing bool           `json:"playing"`
	Paused  bool           `json:"paused"`
}

// You is a joined player's own state: paused (not paired until they come
// back: join again), their race in play ("" none), and whether they were
// paused because their seat stayed idle.
type You struct {
	Rank   int    `json:"rank"`
	Paused bool   `json:"paused"`
	Idle   bool   `json:"idle,omitempty"`
	Race   string `json:"race,omitempty"`
}

// TopRows is how many rows of the standings an arena socket's push carries
// besides the receiver's own.
const TopRows = 50

// RaceRow is one race of an arena in its list of races: its players, its
// status, the winning seat (0: a draw or not over) and the points each seat
// scored.
type RaceRow struct {
	ID      string            `json:"id"`
	Players [2]game.PlayerRef `json:"players"`
	Status  string            `json:"status"`
	Winner  int               `json:"winner"`
	Points  [2]int            `json:"points"`
	At      time.Time         `json:"at"`
}

// Message is what the arena socket sends: {"type": "arena", "arena": view},
// {"type": "paired", "race"} when the receiver is paired (and on connect
// while that race is in play), {"type": "scored", "race", "points",
// "score"} when their race ended, and {"type": "paused", "reason": "idle"}
// when their seat stayed idle.
type Message struct {
	Type   string `json:"type"`
	Arena  *View  `json:"arena,omitempty"`
	Race   string `json:"race,omitempty"`
	Points *int   `json:"points,omitempty"`
	Score  *int   `json:"score,omitempty"`
	Reason string `json:"reason,omitempty"`
}

func encode(m Message) []byte {
	b, _ := json.Marshal(m)
	return b
}

// pusher writes one push of an arena's view to each of its sockets: the
// view and its top rows are encoded once, and only the receiver's own row
// (when beyond them) and their You for each socket. The bytes are those of
// encode(Message{Type: "arena", Arena: &view}) with that row and You.
type pusher struct {
	head []byte // {"type":"arena","arena":{…,"standings":[rows
	top  int    // rows in the head
}

func newPusher(v View) *pusher {
	rows := v.Standings
	v.Standings, v.You = nil, nil
	b := encode(Message{Type: "arena", Arena: &v})
	// b ends with "standings":null}}: the rows go in place of the null.
	b = append(b[:len(b)-len("null}}")], '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		rb, _ := json.Marshal(r)
		b = append(b, rb...)
	}
	return &pusher{head: b, top: len(rows)}
}

// message is the push for a receiver with their own row and You (nil: not
// joined).
func (p *pusher) message(row Row, you *You) []byte {
	b := make([]byte, 0, len(p.head)+256)
	b = append(b, p.head...)
	if you != nil && row.Rank > p.top {
		if p.top > 0 {
			b = append(b, ',')
		}
		rb, _ := json.Marshal(row)
		b = append(b, rb...)
	}
	b = append(b, ']')
	if you != nil {
		yb, _ := json.Marshal(you)
		b = append(append(append(b, `,"you":`...), yb...), '}')
	} else {
		b = append(b, '}')
	}
	return append(b, '}')
}
