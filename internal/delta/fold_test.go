package delta

import (
	"encoding/json"
	"reflect"
	"testing"
)

func decode(tb testing.TB, s string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

const raceView = `{"seq":4,"status":"playing","turn":null,"foundations":[[],[{"card":"AH","seat":2}]],
	"seats":[{"columns":[{"down":2,"up":["KD"]}],"stock":3,"waste":["AS","2S"],"count":0,"blocked":false,"player":null},
	         {"columns":[{"down":0,"up":[]}],"stock":9,"waste":[],"count":1,"blocked":true,"player":{"id":"b"}}]}`

func TestFold(t *testing.T) {
	v := decode(t, raceView)
	err := Fold(v, 5, decode(t, `{"1w":[1,"9H"],"1s":2,"1c1":[0,"7C"],"1d1":1,"f2":[1,{"card":"2H","seat":1}],
		"1n":1,"2b":false,"1p":{"id":"a"},"status":"over","turn":2}`))
	if err != nil {
		t.Fatal(err)
	}
	want := decode(t, `{"seq":5,"status":"over","turn":2,"foundations":[[],[{"card":"AH","seat":2},{"card":"2H","seat":1}]],
	"seats":[{"columns":[{"down":1,"up":["7C"]}],"stock":2,"waste":["AS","9H"],"count":1,"blocked":false,"player":{"id":"a"}},
	         {"columns":[{"down":0,"up":[]}],"stock":9,"waste":[],"count":1,"blocked":false,"player":{"id":"b"}}]}`)
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("got %v\nwant %v", v, want)
	}
}

func TestFoldRefuses(t *testing.T) {
	for _, d := range []string{
		`{"1w":[3,"9H"]}`,  // keep beyond the pile
		`{"1w":[-1]}`,      // negative keep
		`{"1w":[0.5]}`,     // not a count
		`{"1w":"9H"}`,      // not a pile change
		`{"1w":[]}`,        // no keep
		`{"f3":[0,"AS"]}`,  // no such foundation
		`{"1c2":[0,"AS"]}`, // no such column
		`{"3w":[0]}`,       // "3w" is a top-level key: allowed
		`{"1zz":1}`,        // no such seat key
	} {
		err := Fold(decode(t, raceView), 5, decode(t, d))
		if (err == nil) != (d == `{"3w":[0]}`) {
			t.Errorf("%s: %v", d, err)
		}
	}
	if err := Fold(decode(t, `{"seats":[1]}`), 1, decode(t, `{"1s":3}`)); err == nil {
		t.Error("a seat that is not an object")
	}
}

// FuzzFold: no delta makes Fold panic.
func FuzzFold(f *testing.F) {
	f.Add(raceView, `{"1w":[1,"9H"],"f2":[1,{"card":"2H","seat":1}],"status":"over"}`)
	f.Add(`{"waste":[],"columns":[{"down":1,"up":[]}],"foundations":[[]]}`, `{"c1":[0,"KD"],"d1":0,"w":[0,"AS"],"f1":[0,"AH"]}`)
	f.Fuzz(func(t *testing.T, view, d string) {
		var v, dm map[string]any
		if json.Unmarshal([]byte(view), &v) != nil || json.Unmarshal([]byte(d), &dm) != nil || v == nil {
			return
		}
		_ = Fold(v, 1, dm)
	})
}
