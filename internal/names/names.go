// Package names checks the display names players choose, which strangers
// see in the lobby and in races: no name made only of invisible
// characters, none of a short deny-list of slurs and obscenities
// (deny.txt), and none that looks like a reserved name: the computer's,
// the stand-in of deleted players, and the names the operator reserves.
//
// Names are compared by their keys, so that look-alikes compare equal: the
// name in NFKC (fullwidth and mathematical letters, ligatures and the like
// become plain ones), without its default-ignorable code points (zero-width
// joiners and spaces, variation selectors, the Hangul fillers, soft
// hyphens), reduced to its UTS #39 skeleton (the prototype of each
// confusable character: Cyrillic С and Greek Ο are C and O), case-folded,
// reduced again (a small m is the skeleton "rn"), without combining marks,
// with the digits and signs that stand for letters read as them, and cut
// into its runs of letters: spaces, punctuation and digits only separate
// words. A reserved name is refused when the whole key is the same; a
// denied word when it is a word of the name or the whole name, or, for the
// longer ones, anywhere inside it.
//
// The confusables data is the table of github.com/mtibben/confusables
// (BSD-3-Clause), the only Go package that carries it. Its table is the
// Unicode 13.0 confusables.txt (2020) and the package has not changed
// since 2021; its Skeleton is UTS #39's: NFD, each character replaced by
// its prototype, NFD again. Two gaps, both covered here: UTS #39 as
// revised for Unicode 15.1 drops default-ignorable code points in the
// skeleton, which the package does not (this package drops them before),
// and characters added to Unicode 14.0 and 15.0 have no confusable
// mappings in that table. Names must be printable to Go (unicode.Version,
// 15.0), so the later characters are refused before they get here; a
// look-alike among the 14.0 and 15.0 additions would pass unmapped. The
// rules' fingerprint (Checker.Rules) includes the table's module version,
// so a newer table makes the stored names checked again.
package names

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"runtime/debug"
	"slices"
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

//go:embed deny.txt
var denyFile string

// deny is the deny-list, by key.
var deny = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(denyFile, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			m[strings.Join(words(l), "")] = true // read as names are: l and i are one
		}
	}
	return m
}()

// Reserved are the names no player may take whatever the operator adds:
// the computer's name as the web client shows it in each of its languages
// (web/js/i18n, race.computer; the first is the server's, game.BotName),
// and the name shown in the seats of deleted players (account.deletedPlayer,
// and the stored player store.DeletedPlayerID).
var Reserved = []string{
	"Computer", "Ordenador", "Komputer",
	"Deleted player", "Jugador borrado", "Usunięty gracz", "Giocatore eliminato",
}

// The reasons Check gives.
const (
	ReasonBlank    = "a name cannot be blank"
	ReasonReserved = "this name is reserved: choose another"
	ReasonDenied   = "this name is not allowed: choose another"
)

// longWord is the length from which a denied word is refused inside a
// longer word too (shorter ones would refuse innocent names).
const longWord = 6

// lookalike maps the characters that stand for letters, once a name is
// reduced to its skeleton, to them; i and l are one letter (1, I and | are
// l in the skeleton).
var lookalike = map[rune]rune{'l': 'i', '3': 'e', '4': 'a', '@': 'a', '5': 's', '$': 's', '7': 't'}

// fold is the case folding of keys (ß is ss, final ς is σ).
var fold = cases.Fold()

// caseless returns s case-folded, then in lower case: folding alone turns
// Cherokee small letters into capitals and back.
func caseless(s string) string { return strings.ToLower(fold.String(s)) }

// ignorable reports whether c is a default-ignorable code point: a format
// character (zero-width joiners and spaces, soft hyphen, bidi controls), a
// variation selector, a Hangul filler or another
// Other_Default_Ignorable_Code_Point.
func ignorable(c rune) bool {
	return unicode.Is(unicode.Cf, c) || unicode.Is(unicode.Variation_Selector, c) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, c)
}

// invisible reports whether c shows nothing: an ignorable code point,
// white space, or the blank braille pattern.
func invisible(c rune) bool { return ignorable(c) || unicode.IsSpace(c) || c == '\u2800' }

// dropIgnorable removes the default-ignorable code points of s.
func dropIgnorable(s string) string {
	return strings.Map(func(c rune) rune {
		if ignorable(c) {
			return -1
		}
		return c
	}, s)
}

// reduce returns the skeleton of s in NFKC, without default-ignorable
// code points and case-folded, taken again until it changes no more (a
// prototype may have a compatibility form, a small letter a skeleton of its
// own): a few rounds at most.
func reduce(s string) string {
	for range 4 {
		r := confusables.Skeleton(caseless(confusables.Skeleton(dropIgnorable(norm.NFKD.String(s)))))
		if r == s {
			break
		}
		s = r
	}
	return s
}

// words returns the words of a name's key (see the package doc).
func words(name string) []string {
	s := reduce(name)
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, c := range s {
		if unicode.In(c, unicode.Mn, unicode.Me) {
			continue
		}
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

// Key returns the key names are compared by: two names with the same key
// look alike.
func Key(name string) string { return strings.Join(words(name), "") }

// Checker checks names against the deny-list and a set of reserved names.
// It is safe for concurrent use.
type Checker struct {
	reserved map[string]bool // by key
	rules    string
}

// New returns the checker of Reserved and of the operator's reserved
// names (empty ones, and ones with no letter, are left out).
func New(reserved ...string) *Checker {
	c := &Checker{reserved: map[string]bool{}}
	for _, r := range append(slices.Clone(Reserved), reserved...) {
		if k := Key(r); k != "" {
			c.reserved[k] = true
		}
	}
	c.rules = fingerprint(c.reserved)
	return c
}

// Check returns why a name may not be shown ("" when it may): it shows
// nothing, it is a reserved name (the same key), or it holds a denied word.
func (c *Checker) Check(name string) string {
	if !strings.ContainsFunc(name, func(r rune) bool { return !invisible(r) }) {
		return ReasonBlank
	}
	ws := words(name)
	all := strings.Join(ws, "")
	if all != "" && c.reserved[all] {
		return ReasonReserved
	}
	for _, w := range append(ws, all) {
		if deny[w] {
			return ReasonDenied
		}
	}
	for d := range deny {
		if len(d) >= longWord && strings.Contains(all, d) {
			return ReasonDenied
		}
	}
	return ""
}

// keyVersion is the version of the way keys are made and compared: change
// it with Check or words, so that the stored names are checked again.
const keyVersion = "names/1"

// Rules returns the fingerprint of the checker's rules: the way names are
// compared, the Unicode tables, the confusables table's module version, the
// deny-list and the reserved names. A name found good under one
// fingerprint need not be checked again under it.
func (c *Checker) Rules() string { return c.rules }

// fingerprint is Rules of a checker of the reserved keys.
func fingerprint(reserved map[string]bool) string {
	h := sha256.New()
	for _, s := range []string{keyVersion, unicode.Version, norm.Version, confusablesVersion()} {
		h.Write([]byte(s + "\x00"))
	}
	for _, m := range []map[string]bool{deny, reserved} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		h.Write([]byte(strings.Join(keys, "\x00") + "\x01"))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// confusablesVersion is the module version of the confusables table the
// binary was built with ("" when the build does not say).
func confusablesVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/mtibben/confusables" {
			if d.Replace != nil {
				d = d.Replace
			}
			return d.Path + "@" + d.Version + d.Sum
		}
	}
	return ""
}
