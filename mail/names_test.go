package mail_test

import (
	"context"
	netmail "net/mail"
	"strings"
	"testing"
)

// Every mail to a valid address goes out whatever its recipient's name
// holds: the name reaches the To header escaped (RFC 5322) or encoded
// (RFC 2047), cleaned of what could break the header, and the header reads
// back as one address, the recipient's, with the cleaned name.
func TestHostileNamesAreDelivered(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	w := e.worker(t, "a")
	long := strings.Repeat("Ab", 150)
	wide := strings.Repeat("Ž", 300)
	cases := []struct{ name, in, want string }{
		{"unbalanced quote", `Jana "Nováková`, `Jana "Nováková`},
		{"trailing backslash", `Jana Nováková\`, `Jana Nováková`},
		{"trailing backslash in ASCII", `Jana Novak\`, `Jana Novak`},
		{"quote only", `"`, `"`},
		{"quotes and backslashes", `\"\\"x`, `""x`},
		{"CR LF and a header", "Jana\r\nBcc: all@evil.example", "Jana Bcc: all@evil.example"},
		{"NUL", "Ja\x00na", "Ja na"},
		{"tab and runs of spaces", "Jana\t  Nováková ", "Jana Nováková"},
		{"an address in the name", "Nováková, Jana <boss@evil.example>", "Nováková, Jana <boss@evil.example>"},
		{"an encoded word typed", "=?utf-8?q?Bcc=3A_x?=", "=?utf-8?q?Bcc=3A_x?="},
		{"parentheses", "Jana (CEO); x", "Jana (CEO); x"},
		{"300 characters", long, long[:200]},
		{"300 wide characters", wide, strings.Repeat("Ž", 200)},
		{"emoji", "Jana 🎉📦", "Jana 🎉📦"},
		{"Czech diacritics", "Žofie Šťastná-Čermáková", "Žofie Šťastná-Čermáková"},
		{"right to left", "محمد علي", "محمد علي"},
		{"bidi override", "Jana\u202eavon", "Jana avon"},
		{"invalid UTF-8", "Jana\xff\xfe", "Jana"},
		{"nothing left", "\r\n\x00", ""},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := message("hostile-name:" + strings.Repeat("x", i+1))
			m.ToName = c.in
			if _, err := w.Enqueue(ctx, e.db, m); err != nil {
				t.Fatalf("refused: %v", err)
			}
			before := len(e.catch.All())
			if st, err := w.SendDue(ctx); err != nil || st.Sent != 1 {
				t.Fatalf("not sent: %+v %v %+v", st, err, outbox(t, e.db)[0])
			}
			caught := e.catch.All()
			if len(caught) != before+1 {
				t.Fatalf("caught %d, want %d", len(caught), before+1)
			}
			got := caught[0]
			if len(got.Recipients) != 1 || got.Recipients[0] != "jana@example.com" {
				t.Errorf("envelope recipients %q", got.Recipients)
			}
			list, err := netmail.ParseAddressList(got.ToHeader)
			if err != nil || len(list) != 1 {
				t.Fatalf("To %q reads as %v, %v", got.ToHeader, list, err)
			}
			if list[0].Address != "jana@example.com" || list[0].Name != c.want {
				t.Errorf("To %q reads as %q <%s>, want %q", got.ToHeader, list[0].Name, list[0].Address, c.want)
			}
		})
	}
}
