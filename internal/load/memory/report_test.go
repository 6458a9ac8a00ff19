package memory

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// TestReports: the JSON (--json) and the text of the reports, key for key
// and line for line.
func TestReports(t *testing.T) {
	rt := Runtime{HeapBeforeKiB: 1000, HeapAfterKiB: 1500, StackBeforeKiB: 64, StackAfterKiB: 96}
	for _, tc := range []struct {
		name   string
		report interface{ WriteText(io.Writer) }
		json   string
		text   string
	}{
		{
			name: "idle",
			report: &IdleReport{URL: "http://h", Mode: "idle", Sockets: 16, Players: 2, RSSBeforeKiB: 100, RSSAfterKiB: 164, KiBPerSocket: 4,
				Go:           IdleRuntime{Runtime: rt, GoroutinesBefore: 10, GoroutinesAfter: 42, HeapKiBPerSocket: 31.25, StackKiBPerSocket: 2, GoroutinesPerSocket: 2},
				SetupSeconds: 1.5, Protocol: 2, Errors: map[string]int{"rate_limited": 3}},
			json: `{"url":"http://h","mode":"idle","sockets":16,"players":2,"rssBeforeKiB":100,"rssAfterKiB":164,"kibPerSocket":4,` +
				`"go":{"heapInuseBeforeKiB":1000,"heapInuseAfterKiB":1500,"stackInuseBeforeKiB":64,"stackInuseAfterKiB":96,` +
				`"goroutinesBefore":10,"goroutinesAfter":42,"heapKiBPerSocket":31.25,"stackKiBPerSocket":2,"goroutinesPerSocket":2},` +
				`"setupSeconds":1.5,"protocol":2,"Errors":{"rate_limited":3}}`,
			text: "dsol load: idle, 16 sockets (2 players), protocol 2, http://h\n" +
				"setup       1.5s\n" +
				"server rss  100 KiB without sockets, 164 KiB with them\n" +
				"per socket  4.0 KiB\n" +
				"go runtime  heap in use 1000 -> 1500 KiB, stacks 64 -> 96 KiB, 10 -> 42 goroutines\n" +
				"per socket  heap 31.2 KiB, stacks 2.0 KiB, 2.00 goroutines\n" +
				"errors      rate_limited 3\n",
		},
		{
			name: "games",
			report: &GamesReport{URL: "http://h", Mode: "games", Games: 10, Actions: 500, Players: 1, RSSBeforeKiB: 100, RSSAfterKiB: 600,
				KiBPerGame: 50, Go: GamesRuntime{Runtime: rt, HeapKiBPerGame: 50, StackKiBPerGame: 3.2}, LiveTables: 10,
				Built: 5000, BuildSeconds: 2, ActsPerSec: 2500, Errors: map[string]int{}},
			json: `{"url":"http://h","mode":"games","woken":false,"added":false,"games":10,"actions":500,"players":1,"rssBeforeKiB":100,"rssAfterKiB":600,"kibPerGame":50,` +
				`"go":{"heapInuseBeforeKiB":1000,"heapInuseAfterKiB":1500,"stackInuseBeforeKiB":64,"stackInuseAfterKiB":96,` +
				`"heapKiBPerGame":50,"stackKiBPerGame":3.2},"liveTablesBefore":0,"liveTables":10,"actionsBuilt":5000,"buildSeconds":2,"actionsPerSecond":2500,"errors":{}}`,
			text: "dsol load: games, 10 solo games of 500 actions (1 players), http://h\n" +
				"build       2.0s, 2500 actions/s\n" +
				"server rss  100 KiB without live games (0 live tables), 600 KiB with them (10)\n" +
				"per game    50.0 KiB\n" +
				"go runtime  heap in use 1000 -> 1500 KiB, stacks 64 -> 96 KiB\n" +
				"per game    heap 50.0 KiB, stacks 3.2 KiB\n" +
				"errors      none\n",
		},
		{
			name: "games woken",
			report: &GamesReport{URL: "http://h", Mode: "games", Woken: true, Games: 10, Actions: 500, Players: 1, RSSBeforeKiB: 100, RSSAfterKiB: 600,
				KiBPerGame: 50, Go: GamesRuntime{Runtime: rt, HeapKiBPerGame: 50, StackKiBPerGame: 3.2}, LiveTables: 10,
				Built: 5000, BuildSeconds: 4, ActsPerSec: 1250, Errors: map[string]int{}},
			json: `{"url":"http://h","mode":"games","woken":true,"added":false,"games":10,"actions":500,"players":1,"rssBeforeKiB":100,"rssAfterKiB":600,"kibPerGame":50,` +
				`"go":{"heapInuseBeforeKiB":1000,"heapInuseAfterKiB":1500,"stackInuseBeforeKiB":64,"stackInuseAfterKiB":96,` +
				`"heapKiBPerGame":50,"stackKiBPerGame":3.2},"liveTablesBefore":0,"liveTables":10,"actionsBuilt":5000,"buildSeconds":4,"actionsPerSecond":1250,"errors":{}}`,
			text: "dsol load: games, 10 solo games of 500 actions woken (1 players), http://h\n" +
				"wake        4.0s, 2 games/s\n" +
				"server rss  100 KiB without live games (0 live tables), 600 KiB with them (10)\n" +
				"per game    50.0 KiB\n" +
				"go runtime  heap in use 1000 -> 1500 KiB, stacks 64 -> 96 KiB\n" +
				"per game    heap 50.0 KiB, stacks 3.2 KiB\n" +
				"errors      none\n",
		},
		{
			name: "games added",
			report: &GamesReport{URL: "http://h", Mode: "games", Woken: true, Added: true, Games: 10, Actions: 500, Players: 1, RSSBeforeKiB: 100, RSSAfterKiB: 600,
				KiBPerGame: 50, Go: GamesRuntime{Runtime: rt, HeapKiBPerGame: 50, StackKiBPerGame: 3.2}, LiveTablesBefore: 10, LiveTables: 20,
				Built: 5000, BuildSeconds: 4, ActsPerSec: 1250, Errors: map[string]int{}},
			json: `{"url":"http://h","mode":"games","woken":true,"added":true,"games":10,"actions":500,"players":1,"rssBeforeKiB":100,"rssAfterKiB":600,"kibPerGame":50,` +
				`"go":{"heapInuseBeforeKiB":1000,"heapInuseAfterKiB":1500,"stackInuseBeforeKiB":64,"stackInuseAfterKiB":96,` +
				`"heapKiBPerGame":50,"stackKiBPerGame":3.2},"liveTablesBefore":10,"liveTables":20,"actionsBuilt":5000,"buildSeconds":4,"actionsPerSecond":1250,"errors":{}}`,
			text: "dsol load: games, 10 solo games of 500 actions woken (1 players), added to 10 live tables, http://h\n" +
				"wake        4.0s, 2 games/s\n" +
				"server rss  100 KiB before them (10 live tables), 600 KiB with them (20)\n" +
				"per game    50.0 KiB\n" +
				"go runtime  heap in use 1000 -> 1500 KiB, stacks 64 -> 96 KiB\n" +
				"per game    heap 50.0 KiB, stacks 3.2 KiB\n" +
				"errors      none\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.report)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.json {
				t.Errorf("json\n%s\nwant\n%s", got, tc.json)
			}
			var text bytes.Buffer
			tc.report.WriteText(&text)
			if text.String() != tc.text {
				t.Errorf("text\n%s\nwant\n%s", text.String(), tc.text)
			}
		})
	}
}
