package devapi

import (
	"bytes"
	"context"
	"io"
	"mime"
	"net/http"
	"net/url"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Every request to an operation of the documents is checked against it (path parameters,
// query, JSON body; never the answer) before the route's hook runs: a request that breaks
// the document is a 400 naming every bad field under its name, with the message the
// document carries for it (validate_errors.go), and the hook never sees it. What a schema
// cannot say (an owned id, a CIDR, a future date, the 10-endpoint limit) stays the hook's.

// validateMiddlewarePriority: after PocketBase loads the session (-1020), the API key
// middleware (-1025) and the body limit (-990), before any route's own middleware.
const validateMiddlewarePriority = -980

var validateOptions = &openapi3filter.Options{
	MultiError:          true,
	SkipSettingDefaults: true, // the hook reads the body as it came
	AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
}

// Middleware checks each request to an operation of the contract; other routes
// (PocketBase's own /api/collections, …) go on untouched.
func (c *Contract) Middleware() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       "shopRequestValidation",
		Priority: validateMiddlewarePriority,
		Func: func(e *core.RequestEvent) error {
			o := c.ops[patternOf(e.Request)]
			if o == nil || o.unchecked || !o.checks(e.Auth) {
				return e.Next()
			}
			if err := o.check(e.Request); err != nil {
				return err
			}
			return e.Next()
		},
	}
}

// checks reports whether a request by `auth` is checked: the hook refuses one that may
// not call the route (401/403) before it reads anything, and it keeps doing so.
func (o *operation) checks(auth *core.Record) bool {
	switch {
	case o.public:
		return true
	case auth == nil:
		return false
	case o.admin:
		return auth.Collection().Name == "users" && auth.GetBool("is_admin")
	}
	return true
}

// check answers a 400 (router.ApiError, field errors in its data) for a request that breaks
// the operation, nil for one that keeps to it. The body stays readable for the hook.
func (o *operation) check(r *http.Request) error {
	req := &http.Request{Method: r.Method, URL: r.URL, Header: r.Header}
	if o.route.Operation.RequestBody != nil {
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return router.NewBadRequestError("The request body could not be read.", nil)
		}
		r.Body = &router.RereadableReadCloser{ReadCloser: io.NopCloser(bytes.NewReader(data))}
		if len(bytes.TrimSpace(data)) == 0 {
			data = []byte("{}") // every required field is then named as missing
		}
		if media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); media != "application/json" {
			req.Header = r.Header.Clone()
			req.Header.Set("Content-Type", "application/json")
		}
		req.Body = io.NopCloser(bytes.NewReader(data))
	}
	params := make(map[string]string, len(o.params))
	for _, name := range o.params {
		params[name] = r.PathValue(name)
	}
	err := openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request:     req,
		PathParams:  params,
		QueryParams: queryOf(r.URL),
		Route:       o.route,
		Options:     validateOptions,
	})
	if err == nil {
		return nil
	}
	return o.refusal(err)
}

func queryOf(u *url.URL) url.Values {
	q, _ := url.ParseQuery(u.RawQuery)
	return q
}
