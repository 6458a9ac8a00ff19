package main

import (
	"strings"
	"testing"
)

func TestMedians(t *testing.T) {
	odd := medians([]load{{FCP: 300, Bytes: 10, Requests: 3}, {FCP: 100, Bytes: 30, Requests: 1}, {FCP: 200, Bytes: 20, Requests: 2}})
	if odd.FCP != 200 || odd.Bytes != 20 || odd.Requests != 2 {
		t.Errorf("odd: %+v", odd)
	}
	even := medians([]load{{FCP: 100, Cached: 1}, {FCP: 400, Cached: 2}, {FCP: 200, Cached: 2}, {FCP: 300, Cached: 2}})
	if even.FCP != 250 || even.Cached != 2 {
		t.Errorf("even: %+v", even)
	}
}

func TestArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-rounds", "0", "a=http://127.0.0.1:1"},
		{"nameonly"},
		{"=http://127.0.0.1:1"},
	} {
		if err := run(args); err == nil || strings.Contains(err.Error(), "chromium") {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}
