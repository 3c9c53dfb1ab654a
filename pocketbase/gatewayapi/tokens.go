package gatewayapi

import (
	"errors"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/security"

	"proxyshop/pocketbase/tokens"
)

// A gateway token: TokenPrefix and TokenLength characters of TokenAlphabet, stored as
// tokens.Hash. The console mints them too (pb_hooks/lib/gateway/tokens.js newToken):
// tokens_test.go holds both to this one rule.
const (
	// TokenPrefix marks gateway tokens, so a leaked one is recognisable.
	TokenPrefix   = "gwt_"
	TokenLength   = 40
	TokenAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// newTokenSecret is a new gateway token (shown once, never stored).
func newTokenSecret() string {
	return TokenPrefix + security.RandomStringWithAlphabet(TokenLength, TokenAlphabet)
}

// NewToken makes a token named `name` and answers it (stored only as a hash).
func NewToken(app core.App, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		return "", errors.New("name the gateway (1-100 characters), e.g. pocketbase gateway-token eu-1")
	}
	collection, err := app.FindCollectionByNameOrId("gateway_tokens")
	if err != nil {
		return "", err
	}
	token := newTokenSecret()
	record := core.NewRecord(collection)
	record.Set("name", name)
	record.Set("token_hash", tokens.Hash(token))
	if err := app.Save(record); err != nil {
		return "", err
	}
	return token, nil
}
