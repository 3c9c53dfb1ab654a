package gateway

import (
	"testing"
	"time"
)

func TestExpiryByTheGatewaysClock(t *testing.T) {
	echo := startEcho(t, "echo")
	proxy := assigned("soon", "HTTP")
	proxy.ExpiresAt = time.Now().Add(300 * time.Millisecond)
	g := startGateway(t, NewStaticSource(proxy), true)
	status, c, err := connectTunnel(g.httpAddr(), "user-soon", "pass-soon", echo.addr)
	if err != nil || status != 200 {
		t.Fatalf("CONNECT: %d %v", status, err)
	}
	waitClosed(t, c, 2*time.Second)
	if status, _, _ := connectTunnel(g.httpAddr(), "user-soon", "pass-soon", echo.addr); status != 407 {
		t.Fatalf("after expiry: %d", status)
	}
}

// The index reports what each update does to a grant, without a gateway around it: a new
// grant begins a term, a renewal keeps the tunnels, new credentials or a new owner revoke
// them, an unchanged record reports nothing, and a deleted one is revoked.
func TestIndexReportsEachChange(t *testing.T) {
	ix := NewIndex()
	p := assigned("p", "DATACENTER")
	if got := ix.Replace([]Record{p}); len(got) != 1 || !got[0].NewTerm || got[0].Revoked || got[0].Grant == nil {
		t.Fatalf("first load: %+v", got)
	}
	if ix.Authenticate("user-p", "pass-p") == nil || ix.Authenticate("user-p", "nope") != nil || ix.Authenticate("nobody", "pass-p") != nil {
		t.Fatal("authenticate after the first load")
	}
	if got := ix.Apply([]string{"p"}, []Record{p}); len(got) != 0 {
		t.Fatalf("an unchanged record: %+v", got)
	}
	renewed := p
	renewed.ExpiresAt = p.ExpiresAt.Add(time.Hour)
	if got := ix.Apply([]string{"p"}, []Record{renewed}); len(got) != 1 || got[0].Revoked || got[0].NewTerm {
		t.Fatalf("a renewal: %+v", got)
	}
	regenerated := renewed
	regenerated.Password = "new-pass"
	if got := ix.Apply([]string{"p"}, []Record{regenerated}); len(got) != 1 || !got[0].Revoked || got[0].NewTerm {
		t.Fatalf("new credentials: %+v", got)
	}
	if ix.Authenticate("user-p", "pass-p") != nil || ix.Authenticate("user-p", "new-pass") == nil {
		t.Fatal("authenticate after new credentials")
	}
	sold := regenerated
	sold.OwnerID = "someone else"
	if got := ix.Apply([]string{"p"}, []Record{sold}); len(got) != 1 || !got[0].Revoked || !got[0].NewTerm {
		t.Fatalf("a new owner: %+v", got)
	}
	if got := ix.Apply([]string{"p"}, nil); len(got) != 1 || !got[0].Revoked || got[0].Grant != nil || ix.Grant("p") != nil {
		t.Fatalf("a deletion: %+v", got)
	}
	if ix.Authenticate("user-p", "new-pass") != nil {
		t.Fatal("a deleted proxy's credentials still work")
	}
}
