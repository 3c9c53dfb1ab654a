package devapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// The OpenAPI documents the shop publishes (pb_hooks/lib/api/openapi.json, written by
// `npm run openapi` from src/lib/api-contract) are read once at start into a Contract: the
// operations by PocketBase route pattern ("POST /api/v1/webhooks/{id}"), each with its
// API key scope (x-scope) and what a request to it must hold (validate.go).

// Document is one OpenAPI document to follow.
type Document struct {
	File string
	// Optional: a missing file is no error (the admin document may not exist yet).
	Optional bool
	// Admin: its /api/admin operations are a shop admin's only, so a request from anyone
	// else goes on unchecked to the hook, which refuses it (401/403) as before.
	Admin bool
}

// Contract is what the documents say of each operation.
type Contract struct {
	ops map[string]*operation
}

type operation struct {
	route  *routers.Route
	scope  string   // x-scope: read, purchase, …, "session", "public"
	public bool     // nobody needs to be signed in
	admin  bool     // a shop admin's only
	params []string // the path parameters' names
	body   *openapi3.Schema
	// unchecked: its scope counts, its requests go on unchecked
	unchecked bool
}

// LoadContract reads the documents (each must be a valid OpenAPI document).
func LoadContract(docs ...Document) (*Contract, error) {
	c := &Contract{ops: map[string]*operation{}}
	for _, d := range docs {
		if err := c.load(d); err != nil {
			if d.Optional && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return c, fmt.Errorf("%s: %w", d.File, err)
		}
	}
	return c, nil
}

func (c *Contract) load(d Document) error {
	raw, err := os.ReadFile(d.File)
	if err != nil {
		return err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		return err
	}
	if err := doc.Validate(context.Background()); err != nil {
		return err
	}
	// kin-openapi's JSON Schema 2020-12 validator (what it uses for a 3.1 document)
	// compiles the schema again on every request: 2.4 ms a webhook body against 0.1 ms for
	// its own validator, which knows every keyword the documents use (type, "null" in
	// anyOf, enum, required, minimum/maximum, min/maxLength, min/maxItems, pattern).
	doc.OpenAPI = "3.0.3"
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			c.add(d, doc, path, item, method, op)
		}
	}
	return nil
}

// unchecked: an operation whose requests the document asks not to check
// ("x-request-validation": false: Stripe's notices, whose credential is their signature).
func unchecked(op *openapi3.Operation) bool {
	checked, ok := op.Extensions["x-request-validation"].(bool)
	return ok && !checked
}

func (c *Contract) add(d Document, doc *openapi3.T, path string, item *openapi3.PathItem, method string, op *openapi3.Operation) {
	o := &operation{admin: d.Admin && strings.HasPrefix(path, "/api/admin/"), unchecked: unchecked(op)}
	o.scope, _ = op.Extensions["x-scope"].(string)
	security := doc.Security
	if op.Security != nil {
		security = *op.Security
	}
	o.public = o.scope == "public" || (o.scope == "" && len(security) == 0)
	// Headers (Idempotency-Key) stay the hook's: it names what is wrong with them.
	kept := openapi3.Parameters{}
	for _, p := range append(item.Parameters, op.Parameters...) {
		if p.Value == nil || p.Value.In == openapi3.ParameterInHeader {
			continue
		}
		kept = append(kept, p)
		if p.Value.In == openapi3.ParameterInPath {
			o.params = append(o.params, p.Value.Name)
		}
	}
	checked := *op
	checked.Parameters = kept
	checked.Security = &openapi3.SecurityRequirements{}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		if media := op.RequestBody.Value.Content.Get("application/json"); media != nil && media.Schema != nil {
			o.body = media.Schema.Value
		}
	}
	itemCopy := *item
	itemCopy.Parameters = nil
	o.route = &routers.Route{Spec: doc, Path: path, PathItem: &itemCopy, Method: method, Operation: &checked}
	c.ops[method+" "+path] = o
}

// Scope is the API key scope of a route pattern ("GET /api/v1/proxies/{id}"), and whether
// the documents give the route one (the admin document gives none: no key opens it).
func (c *Contract) Scope(pattern string) (string, bool) {
	o := c.ops[pattern]
	if o == nil || o.scope == "" {
		return "", false
	}
	return o.scope, true
}

// Operations is how many operations the documents hold.
func (c *Contract) Operations() int { return len(c.ops) }

// patternOf is the route pattern PocketBase matched for r, with r's method ("HEAD" asks
// what "GET" answers).
func patternOf(r *http.Request) string {
	pattern := r.Pattern
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		return r.Method + pattern[i:]
	}
	return r.Method + " " + pattern
}
