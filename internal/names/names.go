// Package names checks the display names players choose, which strangers
// see in the lobby and in races: a short deny-list of slurs and
// obscenities (deny.txt) and no look-alike of the server bot's name.
package names

import (
	_ "embed"
	"strings"
	"unicode"
)

//go:embed deny.txt
var denyFile string

// deny is the deny-list, by word.
var deny = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(denyFile, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			m[strings.Join(words(l), "")] = true // read as names are: l and i are one
		}
	}
	return m
}()

// longWord is the length from which a denied word is refused inside a
// longer word too (shorter ones would refuse innocent names).
const longWord = 6

// lookalike maps the characters that stand for letters to them; i and l
// are one letter (1 stands for either).
var lookalike = map[rune]rune{'0': 'o', '1': 'i', 'l': 'i', '|': 'i', '3': 'e', '4': 'a', '@': 'a', '5': 's', '$': 's', '7': 't'}

// words returns the name's runs of letters, lower case, with look-alikes
// read as letters.
func words(name string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, c := range strings.ToLower(name) {
		if l, ok := lookalike[c]; ok {
			c = l
		}
		if unicode.IsLetter(c) {
			b.WriteRune(c)
		} else {
			flush()
		}
	}
	flush()
	return out
}

// Check returns why a name may not be shown ("" when it may): a denied
// word, or a look-alike of one of bots, the server bot's name as the
// clients show it (case, spaces, punctuation and digits for letters aside).
func Check(name string, bots ...string) string {
	ws := words(name)
	all := strings.Join(ws, "")
	for _, bot := range bots {
		if all != "" && all == strings.Join(words(bot), "") {
			return "this name is the computer's: choose another"
		}
	}
	for _, w := range append(ws, all) {
		if deny[w] {
			return "this name is not allowed: choose another"
		}
	}
	for d := range deny {
		if len(d) >= longWord && strings.Contains(all, d) {
			return "this name is not allowed: choose another"
		}
	}
	return ""
}
