package devapi

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Every request body the published document shows has an example, and the server accepts
// it: each is sent through the request validation of its operation, with the document's
// path parameter examples (the /docs/api curl examples are these).
func TestDocumentExamplesAreAccepted(t *testing.T) {
	const file = "../pb_hooks/lib/api/openapi.json"
	c, err := LoadContract(Document{File: file})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name, In string
				Required bool
				Schema   struct{ Examples, Enum []string }
			}
			RequestBody *struct {
				Content map[string]struct {
					Schema struct{ Examples []json.RawMessage }
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	bodies := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			pattern := strings.ToUpper(method) + " " + path
			target := path
			var values []string
			query := []string{}
			for _, p := range op.Parameters {
				if p.In == "query" && p.Required {
					example := append(p.Schema.Examples, p.Schema.Enum...)
					if len(example) == 0 {
						t.Errorf("%s: the required query parameter %s has no example", pattern, p.Name)
						continue
					}
					query = append(query, p.Name+"="+example[0])
				}
				if p.In != "path" {
					continue
				}
				if len(p.Schema.Examples) == 0 {
					t.Errorf("%s: the path parameter %s has no example", pattern, p.Name)
					continue
				}
				target = strings.ReplaceAll(target, "{"+p.Name+"}", p.Schema.Examples[0])
				values = append(values, p.Name, p.Schema.Examples[0])
			}
			if len(query) > 0 {
				target += "?" + strings.Join(query, "&")
			}
			o := c.ops[pattern]
			if op.RequestBody == nil {
				if err := o.check(request(pattern, target, "", values...)); err != nil {
					t.Errorf("%s with its parameters' examples: %v", pattern, err)
				}
				continue
			}
			examples := op.RequestBody.Content["application/json"].Schema.Examples
			if len(examples) == 0 {
				t.Errorf("%s: its request body has no example", pattern)
			}
			for _, example := range examples {
				bodies++
				r := request(pattern, target, string(example), values...)
				if err := o.check(r); err != nil {
					t.Errorf("%s refuses its own example %s: %v", pattern, example, err)
				}
			}
		}
	}
	if bodies < 10 {
		t.Fatalf("%d body examples sent, want every body's (10 or more)", bodies)
	}
}
