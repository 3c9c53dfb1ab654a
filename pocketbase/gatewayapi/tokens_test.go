package gatewayapi

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tools/security"

	"proxyshop/pocketbase/tokens"
)

// The console mints gateway tokens too (pb_hooks: POST /api/admin/gateway-tokens): both
// sides keep to one rule, prefix, length, alphabet and hash.
func TestTokensMatchTheConsoles(t *testing.T) {
	js := consoleTokensModule(t)
	constant := func(name string) string {
		m := regexp.MustCompile(`const ` + name + ` = (.+);`).FindStringSubmatch(js)
		if m == nil {
			t.Fatalf("the console's token module has no %s", name)
		}
		return m[1]
	}
	if got := constant("TOKEN_PREFIX"); got != strconv.Quote(TokenPrefix) {
		t.Errorf("console prefix %s, Go %q", got, TokenPrefix)
	}
	if got := constant("TOKEN_LENGTH"); got != strconv.Itoa(TokenLength) {
		t.Errorf("console length %s, Go %d", got, TokenLength)
	}
	if got := constant("TOKEN_ALPHABET"); got != strconv.Quote(TokenAlphabet) {
		t.Errorf("console alphabet %s, Go %q", got, TokenAlphabet)
	}
	pattern := strings.TrimSuffix(strings.TrimPrefix(constant("TOKEN_PATTERN"), "/"), "/")
	for range 20 {
		if token := newTokenSecret(); !regexp.MustCompile(pattern).MatchString(token) {
			t.Fatalf("Go's token %q does not match the console's pattern %s", token, pattern)
		}
	}
	if !strings.Contains(js, "return $security.sha256(token);") {
		t.Error("the console no longer stores a token as $security.sha256(token)")
	}
	for _, token := range []string{"gwt_abc", newTokenSecret()} {
		if security.SHA256(token) != tokens.Hash(token) { // $security.sha256 is security.SHA256
			t.Fatalf("hash of %q: console %s, Go %s", token, security.SHA256(token), tokens.Hash(token))
		}
	}
}

// consoleTokensModule is the hook module that mints gateway tokens (wherever it lives).
func consoleTokensModule(t *testing.T) string {
	var found string
	_ = filepath.WalkDir("../pb_hooks/lib", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".js") {
			if raw, err := os.ReadFile(path); err == nil && strings.Contains(string(raw), `const TOKEN_PREFIX = "gwt_"`) {
				found = string(raw)
			}
		}
		return nil
	})
	if found == "" {
		t.Fatal(`no module of pb_hooks/lib defines TOKEN_PREFIX = "gwt_"`)
	}
	return found
}
