//go:build !linux

package gateway

import (
	"io"
	"net"
)

// pump moves src to dst until src ends (nil) or either fails, counting in chunks.
func pump(dst, src *net.TCPConn, add func(int64)) error {
	for {
		n, err := io.CopyN(dst, src, 256<<10)
		add(n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
