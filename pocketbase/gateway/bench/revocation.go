// Revocation to refusal while traffic flows.

package main

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	"proxyshop/pocketbase/gateway"
)

// revocation: proxies with traffic flowing; each is revoked in turn and timed until its
// tunnel is cut and a new connection with the old password is refused (ms).
func revocation(n int) (p99, max float64) {
	server := listen(echo)
	source := gateway.NewStaticSource()
	for i := 0; i < n; i++ {
		source.Put(proxy(fmt.Sprintf("r%d", i)))
	}
	g := startGateway(source)
	defer g.Close()
	gw := g.Addrs()[0].String()
	times := make([]float64, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("r%d", i)
		c := connectVia(gw, "u"+id, "p"+id, server)
		cut := make(chan time.Time, 1)
		go func() { // traffic until the tunnel is cut
			msg := make([]byte, 64)
			for {
				if _, err := c.Write(msg); err != nil {
					break
				}
				if _, err := io.ReadFull(c, msg); err != nil {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			cut <- time.Now()
		}()
		time.Sleep(10 * time.Millisecond)
		revoked := proxy(id)
		revoked.Password = "new-" + id
		start := time.Now()
		source.Put(revoked)
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cutAt := <-cut
			refusedAt := time.Now()
			for {
				if refused(gw, "u"+id, "p"+id, server) {
					refusedAt = time.Now()
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			end := cutAt
			if refusedAt.After(end) {
				end = refusedAt
			}
			times[i] = float64(end.Sub(start).Microseconds()) / 1000
		}(i)
		c.(*net.TCPConn).SetKeepAlive(true)
		time.Sleep(20 * time.Millisecond)
	}
	wg.Wait()
	sort.Float64s(times)
	return percentile(times, 0.99), times[len(times)-1]
}

func refused(gw, user, pass, target string) bool {
	c, err := net.Dial("tcp", gw)
	if err != nil {
		return false
	}
	defer c.Close()
	auth := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nProxy-Authorization: Basic %s\r\n\r\n", target, auth)
	res, err := http.ReadResponse(bufio.NewReader(c), &http.Request{Method: http.MethodConnect})
	return err == nil && res.StatusCode == http.StatusProxyAuthRequired
}
