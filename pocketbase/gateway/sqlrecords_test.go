package gateway

import (
	"net/netip"
	"testing"

	"github.com/pocketbase/pocketbase/tools/security"
)

// A password sealed as the hooks seal it ("v1:" + AES-256-GCM) opens; one in another form
// or under another key does not, and an empty one is no password.
func TestOpenSealed(t *testing.T) {
	key := "abcdefghijklmnopqrstuvwxyz012345"
	sealed, err := security.Encrypt([]byte("s3cret"), key)
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := OpenSealed("v1:"+sealed, key); err != nil || plain != "s3cret" {
		t.Fatalf("sealed: %q %v", plain, err)
	}
	if _, err := OpenSealed(sealed, key); err == nil {
		t.Fatal("a password without its v1: prefix opened")
	}
	if _, err := OpenSealed("v1:"+sealed, "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"); err == nil {
		t.Fatal("a password opened under another key")
	}
	if plain, err := OpenSealed("", key); err != nil || plain != "" {
		t.Fatalf("empty: %q %v", plain, err)
	}
}

// An allowlist that cannot be read allows nobody rather than everybody.
func TestParseAllowlist(t *testing.T) {
	nobody := []netip.Prefix{netip.PrefixFrom(netip.IPv6Unspecified(), 128)}
	cases := []struct {
		text string
		want []netip.Prefix
	}{
		{"", nil},
		{"null", nil},
		{`["203.0.113.0/24", "198.51.100.7"]`, []netip.Prefix{netip.MustParsePrefix("203.0.113.0/24"), netip.MustParsePrefix("198.51.100.7/32")}},
		{"not json", nobody},
		{`["nonsense"]`, nobody},
	}
	for _, tc := range cases {
		got := parseAllowlist(tc.text)
		if len(got) != len(tc.want) {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
			}
		}
	}
}
