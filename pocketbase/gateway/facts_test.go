package gateway

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
)

// The contract's facts (src/lib/api-contract, written to pb_hooks/lib/facts.json) state what
// the gateway does: the ports of each proxy type, sticky sessions' minutes. The shop's pages
// and plans read them from there; this holds the gateway to them. A gateway on another
// machine has no hooks folder to read, so its port table is compiled in and held here.
func TestTheContractsFactsAreTheGateways(t *testing.T) {
	raw, err := os.ReadFile("../pb_hooks/lib/facts.json")
	if err != nil {
		t.Fatal(err)
	}
	var facts struct {
		Ports struct {
			ByType map[string][]string `json:"by_type"`
		} `json:"gateway_ports"`
		Sessions struct {
			Default int `json:"default_minutes"`
			Max     int `json:"max_minutes"`
		} `json:"gateway_sessions"`
	}
	if err := json.Unmarshal(raw, &facts); err != nil {
		t.Fatal(err)
	}
	if facts.Sessions.Max != MaxSessionMinutes || time.Duration(facts.Sessions.Default)*time.Minute != DefaultSessionTime {
		t.Fatalf("facts say sessions of %d (default %d) minutes; the gateway takes %d (default %v)",
			facts.Sessions.Max, facts.Sessions.Default, MaxSessionMinutes, DefaultSessionTime)
	}
	byType := facts.Ports.ByType
	if len(byType) == 0 {
		t.Fatal("facts.json names no proxy types")
	}
	names := map[Port]string{PortHTTP: "http", PortSOCKS: "socks5", PortHTTPS: "https"}
	for typ, want := range byType {
		g := &Grant{Type: typ}
		for port, name := range names {
			if g.allowsPort(port) != slices.Contains(want, name) {
				t.Errorf("%s on %s: the gateway says %v, the facts %v", typ, name, g.allowsPort(port), want)
			}
		}
	}
	for typ := range typePorts {
		if _, ok := byType[typ]; !ok {
			t.Errorf("the gateway's table names %s, facts.json does not", typ)
		}
	}
}
