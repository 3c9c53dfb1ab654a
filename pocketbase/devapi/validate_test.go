package devapi

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/tools/router"
)

// A small published document and a small admin document, as `npm run openapi` writes
// them: the messages a client reads ride on the schemas.
const testDocument = `{
  "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
  "security": [{"session": []}],
  "components": {"securitySchemes": {"session": {"type": "http", "scheme": "bearer"}}},
  "paths": {
    "/api/v1/things": {
      "post": {"x-scope": "write", "responses": {"200": {"description": "OK"}},
        "parameters": [{"name": "Idempotency-Key", "in": "header", "required": true, "schema": {"type": "string", "minLength": 1}}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object", "required": ["name", "tags"],
          "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 5,
              "x-error-messages": {"minLength": "Name is required", "maxLength": "Name must be at most 5 characters"}},
            "tags": {"type": "array", "minItems": 1, "items": {"enum": ["a", "b"], "type": "string"},
              "x-error-messages": {"minItems": "Choose at least one tag", "type": "Tags are a list"}},
            "cap": {"anyOf": [{"type": "integer", "minimum": 1, "x-error-messages": {"minimum": "The cap is at least 1 cent"}}, {"type": "null"}]},
            "kind": {"type": "string", "enum": ["x"], "x-error-code": "validation_invalid_kind", "x-error-message": "Kinds are x"}
          }}}}}
      },
      "get": {"x-scope": "read", "responses": {"200": {"description": "OK"}},
        "parameters": [{"name": "limit", "in": "query", "schema": {"type": "string", "pattern": "^\\d+$",
          "x-error-message": "limit must be a whole number"}},
          {"name": "page", "in": "query", "schema": {"type": "integer"}}]}
    },
    "/api/v1/things/{id}": {
      "delete": {"x-scope": "write", "responses": {"200": {"description": "OK"}},
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "pattern": "^[a-z0-9]{1,20}$",
          "x-error-message": "The id must be 1-20 letters and digits"}}]}
    },
    "/api/v1/notice": {"post": {"x-scope": "public", "x-request-validation": false, "security": [], "responses": {"200": {"description": "OK"}},
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["n"]}}}}}},
    "/api/v1/open": {"post": {"x-scope": "public", "security": [], "responses": {"200": {"description": "OK"}},
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}}}}}
  }
}`

const testAdminDocument = `{
  "openapi": "3.1.0", "info": {"title": "admin", "version": "1"},
  "security": [{"session": []}],
  "components": {"securitySchemes": {"session": {"type": "http", "scheme": "bearer"}}},
  "paths": {
    "/api/admin/notes": {"post": {"responses": {"200": {"description": "OK"}},
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["text"],
        "properties": {"text": {"type": "string", "maxLength": 3, "x-error-messages": {"maxLength": "At most 3", "type": "Text is required"}}}}}}}}},
    "/api/shop/signup": {"post": {"security": [], "responses": {"200": {"description": "OK"}},
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["email"], "properties": {"email": {"type": "string"}}}}}}}}
  }
}`

func testContract(t *testing.T, withAdmin bool) *Contract {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lib/api"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, "lib/api", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("openapi.json", testDocument)
	if withAdmin {
		write("admin-openapi.json", testAdminDocument)
	}
	c, err := LoadContract(Documents(dir)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// request is a request PocketBase routed to `pattern` ("POST /api/v1/things/{id}").
func request(pattern, target, body string, pathValues ...string) *http.Request {
	method, _, _ := strings.Cut(pattern, " ")
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	r.Pattern = pattern
	for i := 0; i+1 < len(pathValues); i += 2 {
		r.SetPathValue(pathValues[i], pathValues[i+1])
	}
	return r
}

// fieldsOf is field -> "code: message" of a refusal (nil when the request passed).
func fieldsOf(t *testing.T, err error) map[string]string {
	t.Helper()
	if err == nil {
		return nil
	}
	var apiErr *router.ApiError
	if !errors.As(err, &apiErr) || apiErr.Status != 400 {
		t.Fatalf("not a 400: %v", err)
	}
	out := map[string]string{}
	for name, field := range apiErr.Data {
		e := field.(map[string]any) // PocketBase's safe view of a validation.Error
		out[name] = e["code"].(string) + ": " + e["message"].(string)
	}
	return out
}

func TestValidateRequests(t *testing.T) {
	c := testContract(t, true)
	for _, tc := range []struct {
		name    string
		pattern string
		target  string
		body    string
		path    []string
		want    map[string]string
	}{
		{"a body that keeps to the document passes", "POST /api/v1/things", "/api/v1/things", `{"name":"ab","tags":["a"],"cap":null}`, nil, nil},
		{"unknown fields are the hook's to ignore", "POST /api/v1/things", "/api/v1/things", `{"name":"ab","tags":["a"],"price_cents":1}`, nil, nil},
		{"every bad field under its name, with the document's message", "POST /api/v1/things", "/api/v1/things",
			`{"name":"abcdef","tags":[],"cap":0,"kind":"y"}`, nil, map[string]string{
				"name": "validation_max_length: Name must be at most 5 characters.",
				"tags": "validation_required: Choose at least one tag.",
				"cap":  "validation_invalid_number: The cap is at least 1 cent.",
				"kind": "validation_invalid_kind: Kinds are x.",
			}},
		{"a missing field reads its required (else type) message", "POST /api/v1/things", "/api/v1/things", `{}`, nil, map[string]string{
			"name": "validation_required: Invalid name: property \"name\" is missing.",
			"tags": "validation_required: Tags are a list.",
		}},
		{"an empty body is an empty object", "POST /api/v1/things", "/api/v1/things", ``, nil, map[string]string{
			"name": "validation_required: Invalid name: property \"name\" is missing.",
			"tags": "validation_required: Tags are a list.",
		}},
		{"an item out of its enum reads its list's type message", "POST /api/v1/things", "/api/v1/things", `{"name":"a","tags":["c"]}`, nil, map[string]string{
			"tags": "validation_invalid_value: Tags are a list.",
		}},
		{"a wrong type", "POST /api/v1/things", "/api/v1/things", `{"name":"a","tags":"a"}`, nil, map[string]string{"tags": "validation_invalid_value: Tags are a list."}},
		{"a query parameter", "GET /api/v1/things", "/api/v1/things?limit=ten", ``, nil, map[string]string{"limit": "validation_invalid_value: Limit must be a whole number."}},
		{"a query parameter without a message", "GET /api/v1/things", "/api/v1/things?page=" + strings.Repeat("a", 900), ``, nil, map[string]string{"page": "validation_invalid_value: Invalid page: an invalid integer."}},
		{"a good query parameter", "GET /api/v1/things", "/api/v1/things?limit=10&other=x", ``, nil, nil},
		{"a path parameter", "DELETE /api/v1/things/{id}", "/api/v1/things/NOPE!", ``, []string{"id", "NOPE!"}, map[string]string{"id": "validation_invalid_value: The id must be 1-20 letters and digits."}},
		{"the header is the hook's", "DELETE /api/v1/things/{id}", "/api/v1/things/abc", ``, []string{"id", "abc"}, nil},
		{"the admin document's routes", "POST /api/admin/notes", "/api/admin/notes", `{"text":"long"}`, nil, map[string]string{"text": "validation_max_length: At most 3."}},
		{"and /api/shop", "POST /api/shop/signup", "/api/shop/signup", `{"email":1}`, nil, map[string]string{"email": "validation_invalid_value: Invalid email: value must be a string."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := c.ops[patternOf(request(tc.pattern, tc.target, ""))]
			if o == nil {
				t.Fatalf("no operation %s", tc.pattern)
			}
			r := request(tc.pattern, tc.target, tc.body, tc.path...)
			got := fieldsOf(t, o.check(r))
			if len(got) != len(tc.want) {
				t.Fatalf("fields %v, want %v", got, tc.want)
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
			if body, _ := io.ReadAll(r.Body); string(body) != tc.body {
				t.Fatalf("the hook reads %q, not the body sent %q", body, tc.body)
			}
		})
	}
}

func TestRefusalNamesTheFirstField(t *testing.T) {
	c := testContract(t, false)
	err := c.ops["POST /api/v1/things"].check(request("POST /api/v1/things", "/api/v1/things", `{"name":"","tags":[]}`))
	var apiErr *router.ApiError
	if !errors.As(err, &apiErr) || apiErr.Message != "Name is required." {
		t.Fatalf("message %v, want the first field's", err)
	}
	err = c.ops["POST /api/v1/things"].check(request("POST /api/v1/things", "/api/v1/things", `{"name":`))
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || len(apiErr.Data) != 0 {
		t.Fatalf("broken JSON: %v, want a 400 without fields", err)
	}
}

func TestContractDocuments(t *testing.T) {
	if c := testContract(t, false); c.Operations() != 5 {
		t.Fatalf("%d operations without the admin document, want 5", c.Operations())
	}
	c := testContract(t, true)
	if c.Operations() != 7 {
		t.Fatalf("%d operations with the admin document, want 7", c.Operations())
	}
	if !c.ops["POST /api/v1/notice"].unchecked || c.ops["POST /api/v1/open"].unchecked {
		t.Error("x-request-validation: false is not what leaves an operation unchecked")
	}
	for pattern, want := range map[string]string{"POST /api/v1/things": "write", "GET /api/v1/things": "read", "POST /api/v1/open": "public"} {
		if scope, ok := c.Scope(pattern); !ok || scope != want {
			t.Errorf("scope of %s: %q %v, want %q", pattern, scope, ok, want)
		}
	}
	if _, ok := c.Scope("GET /api/collections/users/records"); ok {
		t.Error("a route of no document has a scope")
	}
	if _, err := LoadContract(Document{File: filepath.Join(t.TempDir(), "openapi.json")}); err == nil {
		t.Error("a missing published document is no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	_ = os.WriteFile(bad, []byte(`{"openapi": "3.1.0"}`), 0o644)
	if _, err := LoadContract(Document{File: bad, Optional: true}); err == nil {
		t.Error("an invalid document is no error")
	}
}
