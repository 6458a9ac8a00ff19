package names

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"dsol/internal/game"
)

func TestCheck(t *testing.T) {
	c := New("Admin", "Moderator", "", "!!!")
	for _, tc := range []struct {
		what, name string
		want       string // the reason; "" for a name that may be shown
	}{
		{"plain", "Ada", ""},
		{"generated", "Player 4f2a", ""},
		{"short denied word inside a longer one", "Computadora", ""},
		{"Scunthorpe", "Scunthorpe", ""},
		{"Polish", "Kasia", ""},
		{"accents", "Zoë Åström", ""},
		{"Polish letters", "Łukasz Żółć", ""},
		{"Greek name", "Ελένη", ""},
		{"Cyrillic name", "Сергей", ""},
		{"Japanese", "匿名のプレイヤー", ""},
		{"plural of the bot", "Computers", ""},
		{"part of a reserved name", "Deleted", ""},
		{"longer than a reserved name", "Ordenadora", ""},
		{"longer than an operator's name", "Administrator", ""},

		{"bot", "Computer", ReasonReserved},
		{"bot, lower case", "computer", ReasonReserved},
		{"bot, spaced", "C o m p u t e r", ReasonReserved},
		{"bot, digits for letters", "C0mpu7er", ReasonReserved},
		{"bot, punctuation", "COMPUTER!", ReasonReserved},
		{"bot, a digit after", "Computer 2", ReasonReserved},
		{"bot, rn for m", "Cornputer", ReasonReserved},
		{"Spanish bot, 0 for O", "0rdenador", ReasonReserved},
		{"Polish and Italian bot", "KOMPUTER", ReasonReserved},
		{"Cyrillic С", "Сomputer", ReasonReserved},
		{"Cyrillic о and е", "Cоmputеr", ReasonReserved},
		{"Greek capitals", "ΚΟΜΡUΤΕR", ReasonReserved},
		{"Greek Ο in Ordenador", "Οrdenador", ReasonReserved},
		{"fullwidth", "ＣＯＭＰＵＴＥＲ", ReasonReserved},
		{"mathematical bold", "𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫", ReasonReserved},
		{"double-struck C", "ℂomputer", ReasonReserved},
		{"circled C", "Ⓒomputer", ReasonReserved},
		{"zero-width joiner", "Com\u200dputer", ReasonReserved},
		{"zero-width space", "Comp\u200buter", ReasonReserved},
		{"zero-width non-joiner", "Compu\u200cter", ReasonReserved},
		{"word joiner", "Comput\u2060er", ReasonReserved},
		{"soft hyphen", "Com\u00adputer", ReasonReserved},
		{"variation selector", "Compu\ufe0fter", ReasonReserved},
		{"Hangul filler inside", "Comp\u3164uter", ReasonReserved},
		{"right-to-left mark", "\u200fComputer", ReasonReserved},
		{"combining acute", "Co\u0301mpute\u0301r", ReasonReserved},
		{"precomposed accents", "Cómpütér", ReasonReserved},
		{"combining grapheme joiner", "Comp\u034futer", ReasonReserved},
		{"deleted player", "Deleted player", ReasonReserved},
		{"deleted player, dashed", "deleted-player", ReasonReserved},
		{"deleted player, capitals", "DELETED PLAYER", ReasonReserved},
		{"deleted player, Cyrillic е and р", "Dеlеtеd рlayеr", ReasonReserved},
		{"deleted player, 1 for l", "De1eted P1ayer", ReasonReserved},
		{"Spanish deleted player", "Jugador borrado", ReasonReserved},
		{"Polish deleted player", "Usunięty gracz", ReasonReserved},
		{"Polish deleted player without the ogonek", "Usuniety gracz", ReasonReserved},
		{"Italian deleted player", "Giocatore eliminato", ReasonReserved},
		{"operator's name", "admin", ReasonReserved},
		{"operator's name, Cyrillic А", "Аdmin", ReasonReserved},
		{"operator's name, fullwidth", "ｍｏｄｅｒａｔｏｒ", ReasonReserved},

		{"blank: Hangul filler", "\u3164", ReasonBlank},
		{"blank: Hangul fillers and spaces", "\u3164 \u3164", ReasonBlank},
		{"blank: braille blank", "\u2800\u2800", ReasonBlank},
		{"blank: zero-width space", "\u200b", ReasonBlank},
		{"blank: spaces", "   ", ReasonBlank},
		{"blank: ideographic space", "\u3000", ReasonBlank},
		{"punctuation only is visible", "!!!", ""},

		{"denied", "fuck", ReasonDenied},
		{"denied, dotted", "F.U.C.K", ReasonDenied},
		{"denied word", "you fuck", ReasonDenied},
		{"denied, Polish", "Kurwa", ReasonDenied},
		{"denied inside, digits", "vaffanculo123", ReasonDenied},
		{"denied inside a longer word", "xxgilipollasxx", ReasonDenied},
		{"denied, Italian", "Stronzo", ReasonDenied},
		{"denied, Spanish", "Mierda", ReasonDenied},
		{"denied, Cyrillic с", "fuсk", ReasonDenied},
		{"denied, Cyrillic К", "Кurwa", ReasonDenied},
		{"denied, Greek Μ and Ε", "ΜiΕrda", ReasonDenied},
		{"denied, fullwidth", "ｆｕｃｋ", ReasonDenied},
		{"denied, zero-width space", "f\u200buck", ReasonDenied},
		{"denied, combining mark", "ku\u0301rwa", ReasonDenied},
		{"denied inside, 1 for l", "vaffancu1o", ReasonDenied},
	} {
		t.Run(tc.what, func(t *testing.T) {
			if got := c.Check(tc.name); got != tc.want {
				t.Errorf("Check(%q) = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

// TestReservedOnlyWithOperatorList: the operator's names are reserved by
// the checker they are given to, and Reserved by every checker.
func TestReservedOnlyWithOperatorList(t *testing.T) {
	if why := New().Check("Admin"); why != "" {
		t.Errorf("Admin refused without an operator's list: %q", why)
	}
	for _, r := range Reserved {
		if why := New().Check(r); why != ReasonReserved {
			t.Errorf("Check(%q) = %q, want reserved", r, why)
		}
	}
}

// TestReservedAsTheClientsShowIt: every name the web client shows for the
// computer and for a deleted player, in each of its languages, and the
// server bot's own name, are in Reserved.
func TestReservedAsTheClientsShowIt(t *testing.T) {
	files, err := filepath.Glob("../../web/js/i18n/*.js")
	if err != nil || len(files) < 4 {
		t.Fatalf("catalogues: %v, %v", files, err)
	}
	reserved := map[string]bool{}
	for _, r := range Reserved {
		reserved[r] = true
	}
	if !reserved[game.BotName] {
		t.Errorf("the bot's name %q is not in Reserved", game.BotName)
	}
	key := regexp.MustCompile(`\b(computer|deletedPlayer): '([^']+)'`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, m := range key.FindAllStringSubmatch(string(b), -1) {
			found[m[1]] = true
			if !reserved[m[2]] {
				t.Errorf("%s: %s %q is not in Reserved", filepath.Base(f), m[1], m[2])
			}
		}
		if !found["computer"] || !found["deletedPlayer"] {
			t.Errorf("%s: computer or deletedPlayer not found (%v)", filepath.Base(f), found)
		}
	}
}

// TestRules: the fingerprint changes with the reserved names, not with
// their order or their look-alikes.
func TestRules(t *testing.T) {
	a, b := New("Admin", "Mod"), New("Mod", "Admin")
	if a.Rules() != b.Rules() || a.Rules() == "" {
		t.Errorf("the same names in another order: %q vs %q", a.Rules(), b.Rules())
	}
	if New("ADMIN", "Mod").Rules() != a.Rules() {
		t.Error("a name of the same key changed the fingerprint")
	}
	if New("Admin").Rules() == a.Rules() || New().Rules() == a.Rules() {
		t.Error("other reserved names, same fingerprint")
	}
}

// FuzzCheck checks that keys are canonical and that the verdict on a name
// does not change when it is written with invisible characters between its
// letters, in fullwidth or upper-case ASCII, or in NFKC.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"Ada", "Computer", "Сomputer", "Deleted player", "fuck", "Кurwa", "\u3164", "Zoë", "ß", "İstanbul",
		"ＣＯＭＰＵＴＥＲ", "Co\u0301mputer", "x\u200dy", "匿名", "admin", "", "rn m", "\ufe0f", "¨a"} {
		f.Add(s)
	}
	c := New("Admin")
	f.Fuzz(func(t *testing.T, name string) {
		if !utf8.ValidString(name) {
			return
		}
		why := c.Check(name)
		switch why {
		case "", ReasonBlank, ReasonReserved, ReasonDenied:
		default:
			t.Fatalf("Check(%q) = %q", name, why)
		}
		k := Key(name)
		if again := Key(k); again != k {
			t.Fatalf("Key(%q) = %q, whose key is %q", name, k, again)
		}
		if k != "" && c.reserved[k] != (why == ReasonReserved) {
			t.Fatalf("Check(%q) = %q with the reserved key %q", name, why, k)
		}
		var joined, wide, upper strings.Builder
		for _, r := range name {
			joined.WriteRune(r)
			joined.WriteString("\u200d")
			switch {
			case r > ' ' && r < 0x7f:
				wide.WriteRune(r - '!' + '！')
			default:
				wide.WriteRune(r)
			}
			if r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			upper.WriteRune(r)
		}
		for what, v := range map[string]string{"with joiners": joined.String(), "fullwidth": wide.String(),
			"upper case": upper.String(), "NFKC": norm.NFKC.String(name)} {
			if got := c.Check(v); got != why {
				t.Fatalf("Check(%q) = %q but %s, Check(%q) = %q", name, why, what, v, got)
			}
		}
	})
}
