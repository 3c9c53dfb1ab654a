package devapi

import (
	"errors"
	"testing"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/tools/router"
)

func TestProblemBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		want   map[string]any
		logged bool
	}{
		{"a refusal of the API names its code and where it is documented",
			NewProblem(403, "insufficient_scope", "This API key lacks the \"read\" scope."),
			map[string]any{"status": 403, "code": "insufficient_scope", "type": "/docs/api#problem-insufficient-scope", "title": "Forbidden", "detail": "This API key lacks the \"read\" scope."}, false},
		{"a hook's error keeps its fields under errors",
			router.NewBadRequestError("The URL must be at most 2000 characters.", validation.Errors{"url": validation.NewError("validation_max_length", "The URL must be at most 2000 characters.")}),
			map[string]any{"status": 400, "type": "about:blank", "title": "Bad Request", "detail": "The URL must be at most 2000 characters."}, false},
		{"a documented hook refusal is a problem of its own",
			router.NewForbiddenError("Over the cap.", validation.Errors{"cap": validation.NewError("spend_cap_reached", "Over the cap.")}),
			map[string]any{"status": 403, "code": "spend_cap_reached", "type": "/docs/api#problem-spend-cap-reached", "title": "Forbidden"}, false},
		{"a server error of a hook is logged",
			router.NewInternalServerError("boom", nil),
			map[string]any{"status": 500, "type": "about:blank", "title": "Internal Server Error", "detail": "Boom."}, true},
		{"any other error is a bug of ours: a 500 that tells nothing of it",
			errors.New("sql: database is locked"),
			map[string]any{"status": 500, "type": "about:blank", "detail": unexpectedDetail}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, logged := problemBody(tc.err)
			if logged != tc.logged {
				t.Fatalf("logged = %v, want %v", logged, tc.logged)
			}
			for k, v := range tc.want {
				if body[k] != v {
					t.Fatalf("%s = %#v, want %#v (body %v)", k, body[k], v, body)
				}
			}
			if body["message"] != body["detail"] {
				t.Fatalf("message %q is not the detail %q", body["message"], body["detail"])
			}
		})
	}
	body, _ := problemBody(router.NewBadRequestError("x", validation.Errors{"url": validation.NewError("validation_max_length", "too long")}))
	fields, _ := body["errors"].(map[string]any)
	if field, _ := fields["url"].(map[string]any); field["code"] != "validation_max_length" || field["message"] != "Too long." {
		t.Fatalf("errors = %#v, want url: {code, message}", body["errors"])
	}
}
