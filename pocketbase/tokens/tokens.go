// Package tokens is how the shop stores the secrets it hands out (API keys psk_…, gateway
// tokens gwt_…): only their SHA-256, so a leaked database leaks no usable secret.
package tokens

import (
	"crypto/sha256"
	"encoding/hex"
)

// Hash is what a token's row holds for it: its SHA-256 in lower-case hex (the hooks'
// $security.sha256).
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
