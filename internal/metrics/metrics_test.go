package metrics

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestCatalogue(t *testing.T) {
	m := New()
	m.ObserveHTTP("/api/v1/games/{id}", "GET", 200, 3*time.Millisecond)
	m.ObserveHTTP("", "GET", 404, time.Millisecond)
	m.ObserveAction("draw", "")
	m.ObserveAction("move", "illegal_move")
	m.ObserveCommit(3, time.Millisecond, nil)
	m.ObserveCommit(1, time.Millisecond, errors.New("down"))
	m.AddLiveTables(2)
	m.AddLiveTables(-1)
	m.AddWSConnections(1)
	m.AddLobbyConnections(2)
	m.AddLobbyConnections(-1)
	m.ObserveWSIn("action")
	m.ObserveWSOut("ack")
	m.ObserveWSAction(80 * time.Microsecond)
	m.ObserveWSReject("rate_limited")
	m.ObserveWSSlowDrop()
	m.AddGamesDeleted(3)
	m.SetWinnableDeals("D1V", 12, 3)
	m.ObserveWinnableSearch("D1V", false)
	m.ObserveWinnableSearch("D1V", true)
	m.SetWinnableState("searching")
	m.SetWinnableState("yielding")
	m.AddWinnableCPU(1500 * time.Millisecond)
	m.SetBuildInfo("v0.0.1", "abc", "go1.0")
	m.SetBuildInfo("v1.2.3", "0123abcd", "go1.26.8")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`dsol_http_requests_total{method="GET",route="/api/v1/games/{id}",status="200"} 1`,
		`dsol_http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`dsol_http_request_duration_seconds_count{method="GET",route="/api/v1/games/{id}"} 1`,
		`dsol_actions_total{result="accepted",type="draw"} 1`,
		`dsol_actions_total{result="illegal_move",type="move"} 1`,
		`dsol_commit_duration_seconds_count 2`,
		`dsol_commit_batch_actions_sum 4`,
		`dsol_commit_errors_total 1`,
		`dsol_live_tables 1`,
		`dsol_ws_connections 1`,
		`dsol_lobby_connections 1`,
		`dsol_ws_messages_received_total{type="action"} 1`,
		`dsol_ws_messages_sent_total{type="ack"} 1`,
		`dsol_ws_action_duration_seconds_bucket{le="0.0001"} 1`,
		`dsol_ws_rejects_total{code="rate_limited"} 1`,
		`dsol_ws_slow_consumer_drops_total 1`,
		`dsol_games_deleted_total 3`,
		`dsol_winnable_deals{mode="D1V",source="list"} 12`,
		`dsol_winnable_deals{mode="D1V",source="pool"} 3`,
		`dsol_winnable_searched_total{mode="D1V"} 2`,
		`dsol_winnable_won_total{mode="D1V"} 1`,
		`dsol_winnable_search_state{state="yielding"} 1`,
		`dsol_winnable_search_state{state="searching"} 0`,
		`dsol_winnable_search_cpu_seconds_total 1.5`,
		`dsol_build_info{commit="0123abcd",goversion="go1.26.8",version="v1.2.3"} 1`,
		`go_goroutines`,
		`process_start_time_seconds`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("missing %s", want)
		}
	}
	if n := strings.Count(string(body), "dsol_build_info{"); n != 1 {
		t.Errorf("%d dsol_build_info series, want 1", n)
	}
}
