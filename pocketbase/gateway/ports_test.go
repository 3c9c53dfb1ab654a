package gateway

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The ports each proxy type answers on are the contract's: the gateway's table is held to
// the facts file `npm run openapi` writes for the hooks (pb_hooks/lib/facts.json), so a
// type or port changed in the contract fails here until the gateway follows.
func TestTypePortsAreTheContracts(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "pb_hooks", "lib", "facts.json"))
	if err != nil {
		t.Fatal(err)
	}
	var facts struct {
		GatewayPorts struct {
			ByType map[string][]string `json:"by_type"`
		} `json:"gateway_ports"`
	}
	if err := json.Unmarshal(raw, &facts); err != nil {
		t.Fatal(err)
	}
	byType := facts.GatewayPorts.ByType
	if len(byType) == 0 {
		t.Fatal("facts.json names no proxy types")
	}
	portNames := map[Port]string{PortHTTP: "http", PortSOCKS: "socks5"}
	for typ, names := range byType {
		for port, name := range portNames {
			want := slices.Contains(names, name)
			if got := (&Grant{Type: typ}).allowsPort(port); got != want {
				t.Errorf("%s on the %s port: the gateway says %v, facts.json %v", typ, name, got, want)
			}
		}
	}
	for typ := range typePorts {
		if _, ok := byType[typ]; !ok {
			t.Errorf("the gateway's table names %s, facts.json does not", typ)
		}
	}
}
