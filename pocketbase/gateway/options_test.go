package gateway

import (
	"testing"
	"time"
)

func TestSplitUsername(t *testing.T) {
	name, opts, err := splitUsername("res_us_abc-session-s1-sesstime-15-country-us")
	if err != nil || name != "res_us_abc" || opts.Session != "s1" || opts.SessionTime != 15*time.Minute || opts.Country != "US" {
		t.Fatalf("%q %+v %v", name, opts, err)
	}
	name, opts, _ = splitUsername("plain-name")
	if name != "plain-name" || !opts.empty() {
		t.Fatalf("%q %+v", name, opts)
	}
	if _, opts, _ := splitUsername("u-session-x"); opts.SessionTime != DefaultSessionTime {
		t.Fatalf("default session time: %v", opts.SessionTime)
	}
}
