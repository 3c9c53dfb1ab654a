// Idle tunnels held by a gateway in a process of its own: RSS per tunnel.

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"proxyshop/pocketbase/gateway"
)

// serveIdle (the child): a gateway alone, with one proxy, until stdin closes.
func serveIdle() {
	g := startGateway(gateway.NewStaticSource(proxy("i")))
	fmt.Println(g.Addrs()[0].String())
	_, _ = io.Copy(io.Discard, os.Stdin)
	g.Close()
}

func rssKB(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	must(err)
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			kb, _ := strconv.ParseFloat(strings.Fields(line)[1], 64)
			return kb
		}
	}
	return 0
}

// idle: n tunnels through a gateway in its own process; answers how many were dropped and
// the RSS delta per tunnel (KB).
func idle(n int) (int, int, float64) {
	server := listen(func(c net.Conn) { _, _ = io.Copy(io.Discard, c); c.Close() })
	child := exec.Command(os.Args[0], "serve")
	stdin, _ := child.StdinPipe()
	stdout, _ := child.StdoutPipe()
	child.Stderr = os.Stderr
	must(child.Start())
	defer func() { stdin.Close(); child.Wait() }()
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	must(err)
	addr = strings.TrimSpace(addr)
	time.Sleep(200 * time.Millisecond)
	before := rssKB(child.Process.Pid)
	conns := make([]net.Conn, 0, n)
	for i := 0; i < n; i++ {
		conns = append(conns, connectVia(addr, "ui", "pi", server))
	}
	time.Sleep(time.Second)
	after := rssKB(child.Process.Pid)
	dropped := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
			dropped++
		}
	}
	for _, c := range conns {
		c.Close()
	}
	return n, dropped, (after - before) / float64(n)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
