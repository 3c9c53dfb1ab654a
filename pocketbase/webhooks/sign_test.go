package webhooks

import (
	"testing"
	"time"
)

// The Standard Webhooks reference libraries' test vector (standard-webhooks/libraries,
// e.g. javascript/src/index.test.ts and python/tests/test_webhooks.py).
func TestSignMatchesTheStandardWebhooksVector(t *testing.T) {
	ts := time.Unix(1614265330, 0)
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %q, want %q", got, want)
	}
	// The same key without its prefix signs the same; a broken secret is an error, not a signature.
	if again, _ := Sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, []byte(`{"test": 2432232314}`)); again != got {
		t.Fatalf("unprefixed secret signs %q", again)
	}
	if _, err := Sign("whsec_not base64!", "msg_1", ts, nil); err == nil {
		t.Fatal("a malformed secret signed")
	}
}
