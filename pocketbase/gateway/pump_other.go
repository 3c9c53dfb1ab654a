//go:build !linux

package gateway

import (
	"io"
	"net"
)

// pump moves src to dst until src ends (nil) or either fails, counting in chunks taken
// from the budget first (errBudgetSpent when it has no byte left).
func pump(dst, src *net.TCPConn, b *budget, add func(int64)) error {
	for {
		allowed := b.take(32 << 10)
		if allowed == 0 {
			return errBudgetSpent
		}
		n, err := io.CopyN(dst, src, allowed)
		b.giveBack(allowed - n)
		add(n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
