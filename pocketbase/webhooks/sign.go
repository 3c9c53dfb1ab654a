// Package webhooks delivers customer webhooks (issue #18): a dispatcher that claims due rows
// of webhook_deliveries (queued by pb_hooks/lib/webhooks/queue.js inside the transaction of
// the change they report), signs each per Standard Webhooks, sends it with a dialer that
// refuses private addresses at connect time, and writes every attempt's outcome back,
// retrying with backoff for 24 hours. All state lives in the table: a restart loses none.
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret (Standard Webhooks): "whsec_" + base64 of the key bytes.
const SecretPrefix = "whsec_"

// SecretBytes are the HMAC key bytes of a secret: the base64-decoded part after "whsec_".
func SecretBytes(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, errors.New("the endpoint's signing secret is not whsec_ followed by base64")
	}
	return key, nil
}

// Sign is the webhook-signature header of one message: "v1," + base64(HMAC-SHA256(key,
// "<id>.<timestamp>.<body>")).
func Sign(secret, msgID string, timestamp time.Time, body []byte) (string, error) {
	key, err := SecretBytes(secret)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp.Unix(), 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}
