package devapi

import "testing"

// What the request validation costs a request, against the published document: a list's
// query and a webhook's body (go test -bench Validate ./devapi).
func BenchmarkValidate(b *testing.B) {
	c, err := LoadContract(Document{File: "../pb_hooks/lib/api/openapi.json"})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, pattern, target, body string }{
		{"list query", "GET /api/v1/proxies", "/api/v1/proxies?limit=50&type=HTTP", ""},
		{"webhook body", "POST /api/v1/webhooks", "/api/v1/webhooks",
			`{"url":"https://example.com/webhooks","events":["purchase.completed","balance.low"],"description":"Orders","balance_low_cents":5000}`},
	} {
		o := c.ops[bc.pattern]
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := o.check(request(bc.pattern, bc.target, bc.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
