package gateway

import (
	"io"
	"net"

	"golang.org/x/sys/unix"
)

// pump moves src to dst until src ends (nil) or either fails. It waits for src to be
// readable without holding anything, asks the kernel how many bytes are queued, and moves
// exactly those with io.CopyN, which Linux does with splice (no copy through user space;
// *net.TCPConn on both sides). So an idle tunnel holds no buffer and no splice pipe (10,000
// idle tunnels stay small), and the meter counts as the bytes move.
func pump(dst, src *net.TCPConn, add func(int64)) error {
	raw, err := src.SyscallConn()
	if err != nil {
		return err
	}
	for {
		queued, waited := 0, false
		var ioctlErr error
		err := raw.Read(func(fd uintptr) bool {
			n, err := unix.IoctlGetInt(int(fd), unix.SIOCINQ)
			if err != nil {
				ioctlErr = err
				return true
			}
			if n > 0 || waited {
				queued = n
				return true
			}
			waited = true
			return false // wait until readable, then ask again
		})
		if err != nil {
			return err
		}
		if ioctlErr != nil {
			return ioctlErr
		}
		if queued == 0 {
			// Readable with nothing queued: the end of the stream (or a spurious wake-up,
			// which this read tells apart).
			var one [1]byte
			n, err := src.Read(one[:])
			if n > 0 {
				if _, werr := dst.Write(one[:n]); werr != nil {
					return werr
				}
				add(int64(n))
				continue
			}
			if err == io.EOF {
				return nil
			}
			return err
		}
		n, err := io.CopyN(dst, src, int64(queued))
		add(n)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
