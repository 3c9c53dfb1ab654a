package devapi

import (
	"errors"
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/tools/router"
)

// What a client reads about a bad field is what the shop always said (the hooks' texts):
// the contract carries them in the document (src/lib/api-contract/openapi.ts), on the
// schema whose keyword failed or on the field's own schema:
//
//	"x-error-messages": {"maxLength": "The description must be at most 200 characters"}
//	"x-error-code": "validation_invalid_package"
//
// A missing field reads the field's "required" message, else its "type" one (valibot's
// message for a missing key is its schema's). Without one, a plain text names the rule.

// keywordCodes are the field error codes of the failing keywords (the hooks' codes).
var keywordCodes = map[string]string{
	"required":  "validation_required",
	"minLength": "validation_required",
	"minItems":  "validation_required",
	"maxLength": "validation_max_length",
	"maxItems":  "validation_max_length",
	"minimum":   "validation_invalid_number",
	"maximum":   "validation_invalid_number",
}

// refusal is the 400 for what ValidateRequest found: each bad field under its name.
func (o *operation) refusal(err error) error {
	fields := validation.Errors{}
	var other string
	var visit func(error)
	visit = func(err error) {
		switch e := err.(type) {
		case openapi3.MultiError:
			for _, inner := range e {
				visit(inner)
			}
		case *openapi3filter.RequestError:
			switch {
			case e.Parameter != nil:
				name := e.Parameter.Name
				var schema *openapi3.Schema
				if e.Parameter.Schema != nil {
					schema = e.Parameter.Schema.Value
				}
				if _, seen := fields[name]; !seen {
					fields[name] = fieldError(name, e.Err, schema)
				}
			case e.RequestBody != nil && isSchemaError(e.Err):
				o.bodyErrors(e.Err, fields)
			default:
				other = "The request body must be a JSON object."
			}
		default:
			other = "The request does not match the API's description: " + err.Error()
		}
	}
	visit(err)
	if len(fields) == 0 {
		return router.NewBadRequestError(other, nil)
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	return router.NewBadRequestError(fields[names[0]].(validation.Error).Message(), fields)
}

func isSchemaError(err error) bool {
	switch err.(type) {
	case openapi3.MultiError, *openapi3.SchemaError:
		return true
	}
	return false
}

// bodyErrors puts each broken field of a body under its name (the first error a field).
func (o *operation) bodyErrors(err error, fields validation.Errors) {
	if many, ok := err.(openapi3.MultiError); ok {
		for _, e := range many {
			o.bodyErrors(e, fields)
		}
		return
	}
	se, ok := err.(*openapi3.SchemaError)
	if !ok {
		return
	}
	name := "body"
	var schema *openapi3.Schema
	if pointer := se.JSONPointer(); len(pointer) > 0 {
		name = pointer[0]
		if o.body != nil && o.body.Properties[name] != nil {
			schema = o.body.Properties[name].Value
		}
	}
	if _, seen := fields[name]; !seen {
		fields[name] = fieldError(name, se, schema)
	}
}

// fieldError is the error of field `name` (whose schema is `field`) for `err`.
func fieldError(name string, err error, field *openapi3.Schema) validation.Error {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		keyword := "type" // a value that is not of its type (a query parameter)
		if errors.Is(err, openapi3filter.ErrInvalidRequired) {
			keyword = "required"
		}
		return validation.NewError(codeOf(field, nil, keyword), messageOr(messageOf(field, keyword), name, reasonOf(err)))
	}
	keyword, schema := se.SchemaField, se.Schema
	if keyword == "anyOf" || keyword == "oneOf" {
		if inner := branchError(schema, se.Value); inner != nil {
			keyword, schema = inner.SchemaField, inner.Schema
		}
	}
	if keyword == "required" {
		schema = nil // the object's; the missing field's own messages are `field`'s
	}
	message := messageOf(schema, keyword)
	if message == "" {
		message = messageOf(field, keyword)
	}
	return validation.NewError(codeOf(field, schema, keyword), messageOr(message, name, se.Reason))
}

// reasonOf is why a parameter could not be read, without the value it was sent (which may
// be any length and is the caller's own).
func reasonOf(err error) string {
	var pe *openapi3filter.ParseError
	if errors.As(err, &pe) && pe.Reason != "" {
		return pe.Reason
	}
	return err.Error()
}

// branchError is why `value` fits no branch of an anyOf/oneOf but null: the first
// non-null branch's first error (a nullable field's value that is not null).
func branchError(schema *openapi3.Schema, value any) *openapi3.SchemaError {
	if schema == nil {
		return nil
	}
	for _, branch := range append(schema.AnyOf, schema.OneOf...) {
		if branch.Value == nil || branch.Value.Type.Is("null") {
			continue
		}
		var se *openapi3.SchemaError
		if errors.As(branch.Value.VisitJSON(value), &se) {
			return se
		}
	}
	return nil
}

// messageOf is the message `schema` carries for a failed `keyword` ("" when none).
func messageOf(schema *openapi3.Schema, keyword string) string {
	if schema == nil {
		return ""
	}
	messages, _ := schema.Extensions["x-error-messages"].(map[string]any)
	for _, k := range append([]string{keyword}, fallbackKeywords(keyword)...) {
		if m, ok := messages[k].(string); ok {
			return m
		}
	}
	m, _ := schema.Extensions["x-error-message"].(string)
	return m
}

// fallbackKeywords: a value missing, null or of another type reads the schema's own
// message (valibot's v.string("…"), v.picklist([…], "…")).
func fallbackKeywords(keyword string) []string {
	switch keyword {
	case "required", "nullable", "type", "enum", "anyOf", "oneOf":
		return []string{"type", "enum"}
	}
	return nil
}

// codeOf is the field error code: the schema's x-error-code, else the keyword's.
func codeOf(field, schema *openapi3.Schema, keyword string) string {
	for _, s := range []*openapi3.Schema{schema, field} {
		if s == nil {
			continue
		}
		if code, ok := s.Extensions["x-error-code"].(string); ok {
			return code
		}
	}
	if code, ok := keywordCodes[keyword]; ok {
		return code
	}
	return "validation_invalid_value"
}

func messageOr(message, name, reason string) string {
	if message != "" {
		return message
	}
	return fmt.Sprintf("Invalid %s: %s", name, reason)
}
