package main

import (
	"encoding/json"
	"io"

	"dsol/internal/cards"
	"dsol/internal/cli"
	"dsol/internal/race"
	"dsol/internal/solo"
)

// runDeal prints the full deal of a game code (docs/rules.md §5; the commands are listed in docs/operations.md).
func runDeal(args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return cli.Usagef("deal takes one game code, such as DS1-D1N-AAAAAAB")
	}
	code, err := cards.ParseCode(args[0])
	if err != nil {
		return cli.Usagef("%v", err)
	}
	var out any
	switch code.Kind {
	case cards.Solo:
		out = solo.DealOf(code)
	case cards.Race:
		out = race.DealOf(code)
	default:
		return cli.Usagef("unknown kind of game code %q", args[0])
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(out)
}
