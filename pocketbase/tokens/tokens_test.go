package tokens

import "testing"

func TestHash(t *testing.T) {
	for token, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	} {
		if got := Hash(token); got != want {
			t.Fatalf("Hash(%q) = %s, want %s", token, got, want)
		}
	}
}
