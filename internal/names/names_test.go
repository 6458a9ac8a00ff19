package names

import "testing"

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"Ada", true},
		{"Player 4f2a", true},
		{"Computadora", true}, // holds "puta" inside a longer word: short words only match whole
		{"Scunthorpe", true},
		{"Kasia", true},
		{"Computer", false},
		{"computer", false},
		{"C o m p u t e r", false},
		{"C0mpu7er", false},
		{"COMPUTER!", false},
		{"Computer 2", false},
		{"0rdenador", false},
		{"KOMPUTER", false},
		{"Computers", true},
		{"fuck", false},
		{"F.U.C.K", false},
		{"you fuck", false},
		{"Kurwa", false},
		{"vaffanculo123", false},
		{"xxgilipollasxx", false},
		{"Stronzo", false},
		{"Mierda", false},
	} {
		why := Check(tc.name, "Computer", "Ordenador", "Komputer")
		if (why == "") != tc.ok {
			t.Errorf("Check(%q) = %q, want ok %v", tc.name, why, tc.ok)
		}
	}
}
