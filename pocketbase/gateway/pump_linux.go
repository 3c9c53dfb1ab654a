package gateway

import (
	"errors"
	"io"
	"net"

	"golang.org/x/sys/unix"
)

// pump moves src to dst until src ends (nil) or either fails. It waits for src to be
// readable without holding anything, asks the kernel how many bytes are queued, and moves
// exactly those with io.CopyN, which Linux does with splice (no copy through user space;
// *net.TCPConn on both sides). So an idle tunnel holds no buffer and no splice pipe (idle
// tunnels stay small), and the meter counts as the bytes move. Each move is first taken
// from the budget: when it has no byte left the pump stops there (errBudgetSpent), so the
// copy never passes it.
func pump(dst, src *net.TCPConn, b *budget, add func(int64)) error {
	raw, err := src.SyscallConn()
	if err != nil {
		return err
	}
	var peek [1]byte
	for {
		queued, eof := 0, false
		var readErr error
		err := raw.Read(func(fd uintptr) bool {
			// Peek first: the end of the stream (recv answers 0) raises no new readiness
			// event, so it must be seen here, not waited for.
			n, _, err := unix.Recvfrom(int(fd), peek[:], unix.MSG_PEEK|unix.MSG_DONTWAIT)
			switch {
			case errors.Is(err, unix.EAGAIN):
				return false // nothing yet: wait until readable, then look again
			case err != nil:
				readErr = err
			case n == 0:
				eof = true
			default:
				queued, readErr = unix.IoctlGetInt(int(fd), unix.SIOCINQ)
			}
			return true
		})
		if err != nil {
			return err
		}
		if readErr != nil {
			return readErr
		}
		if eof {
			return nil
		}
		allowed := b.take(int64(max(queued, 1)))
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
