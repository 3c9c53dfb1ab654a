package devapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Every failure of the developer API (/api/v1) answers RFC 9457 problem details, whether a
// hook threw it, a middleware refused the request or something broke: one shape for
// clients to read. `message` repeats `detail` for the PocketBase SDK (its
// ClientResponseError reads `message`); `errors` carries the per-field messages PocketBase
// keeps in `data`.

// problemMiddlewarePriority: outside PocketBase's panic recovery (-1030), so a panic comes
// back as an error here too, and inside its activity logger (-1040).
const problemMiddlewarePriority = -1035

// problemTypeBase is where the reference documents each problem code (a URI reference).
const problemTypeBase = "/docs/api#problem-"

// unexpectedDetail is what a client reads about a bug of ours.
const unexpectedDetail = "Something went wrong on our side. Nothing was changed that you cannot retry: try again with the same Idempotency-Key, or contact support if it keeps happening."

// Problem is an error of the developer API with a stable code, e.g. insufficient_scope.
type Problem struct {
	Status int
	Code   string
	Detail string
}

func (p *Problem) Error() string { return p.Detail }

// NewProblem is a refusal of the developer API: its HTTP status, code and what it tells.
func NewProblem(status int, code, detail string) *Problem {
	return &Problem{Status: status, Code: code, Detail: detail}
}

// documentedHookProblems are the hooks' refusals the API reference documents as problems of
// their own (a per-field error code that names the whole refusal).
var documentedHookProblems = map[string]bool{"spend_cap_reached": true}

// fieldCode is the code of one of an ApiError's per-field errors ("" when it has none).
func fieldCode(field any) string {
	switch f := field.(type) {
	case map[string]any:
		code, _ := f["code"].(string)
		return code
	case interface{ Code() string }:
		return f.Code()
	}
	return ""
}

// IsDeveloperAPI reports whether a request path is the developer API's.
func IsDeveloperAPI(path string) bool {
	return strings.HasPrefix(path, "/api/v1/")
}

func problemDetails() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       "shopProblemDetails",
		Priority: problemMiddlewarePriority,
		Func: func(e *core.RequestEvent) error {
			if !IsDeveloperAPI(e.Request.URL.Path) {
				return e.Next()
			}
			err := e.Next()
			if err == nil || e.Written() {
				return err
			}
			return writeProblem(e, err)
		},
	}
}

// problemBody is the problem details of `err`, and whether it is a bug of ours (to log)
// rather than a refusal.
func problemBody(err error) (map[string]any, bool) {
	body := map[string]any{}
	var p *Problem
	var apiErr *router.ApiError
	logged := false
	switch {
	case errors.As(err, &p):
		body["status"] = p.Status
		body["detail"] = p.Detail
		body["code"] = p.Code
		body["type"] = problemTypeBase + strings.ReplaceAll(p.Code, "_", "-")
	case errors.As(err, &apiErr):
		body["status"] = apiErr.Status
		body["detail"] = apiErr.Message
		body["type"] = "about:blank"
		if len(apiErr.Data) > 0 {
			body["errors"] = apiErr.Data
		}
		// A refusal the reference documents by its code (a hook's field error carries it).
		for _, field := range apiErr.Data {
			if code := fieldCode(field); documentedHookProblems[code] {
				body["code"] = code
				body["type"] = problemTypeBase + strings.ReplaceAll(code, "_", "-")
			}
		}
		logged = apiErr.Status >= 500
	default:
		// A bug, not a refusal: PocketBase would call it a 400; it is ours to own.
		body["status"] = http.StatusInternalServerError
		body["detail"] = unexpectedDetail
		body["type"] = "about:blank"
		logged = true
	}
	status := body["status"].(int)
	body["title"] = http.StatusText(status)
	if body["title"] == "" {
		body["title"] = "Error"
	}
	body["message"] = body["detail"]
	return body, logged
}

func writeProblem(e *core.RequestEvent, err error) error {
	body, logged := problemBody(err)
	if logged {
		e.App.Logger().Error("developer API: server error", "path", e.Request.URL.Path, "error", err.Error())
	}
	e.Response.Header().Set("Content-Type", "application/problem+json")
	return e.JSON(body["status"].(int), body)
}
