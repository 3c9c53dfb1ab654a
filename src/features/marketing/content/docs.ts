// Copy of the Documentation page (spec 2.5 and the documented API examples of section 7).
// The API shown here is illustrative: the product's own pages do not call it.

export const API_BASE = "https://api.example.com/v1";

export const quickStart = (welcome: string | null) =>
  [
    {
      id: "create-account",
      title: "Create your account",
      text: `Sign up with your e-mail address.${welcome ? ` New accounts receive ${welcome} in free credits to test the network once the address is verified.` : ""}`,
      label: "POST /auth/signup",
      code: `curl -X POST ${API_BASE}/auth/signup \\
  -H "Content-Type: application/json" \\
  -d '{"email": "you@example.com", "password": "a-strong-password"}'`,
    },
    {
      id: "get-api-key",
      title: "Get your API key",
      text: "Exchange your credentials for a bearer token and send it in the Authorization header of every request.",
      label: "GET /auth/token",
      code: `curl ${API_BASE}/auth/token \\
  -H "Authorization: Bearer YOUR_API_KEY"`,
    },
    {
      id: "purchase-proxies",
      title: "Purchase proxies",
      text: "Choose a proxy type, a country and a quantity. The cost is taken from your prepaid credit balance.",
      label: "POST /proxies/purchase",
      code: `curl -X POST ${API_BASE}/proxies/purchase \\
  -H "Authorization: Bearer YOUR_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"type": "RESIDENTIAL", "country": "US", "quantity": 10}'`,
    },
    {
      id: "use-proxies",
      title: "Use your proxies",
      text: "Point any HTTP client at the host and port of a proxy, authenticating with its username and password.",
      label: "Your first proxied request",
      code: `curl -x http://USERNAME:PASSWORD@PROXY_HOST:PORT https://httpbin.org/ip`,
    },
  ] as const;

export const TOPIC_GROUPS = [
  {
    title: "Getting Started",
    links: [
      { href: "#quick-start", label: "Quick start" },
      { href: "#create-account", label: "Creating an account" },
      { href: "#get-api-key", label: "Authentication" },
      { href: "#use-proxies", label: "Your first request" },
    ],
  },
  {
    title: "API Reference",
    links: [
      { href: "#api-proxies", label: "Listing proxies" },
      { href: "#api-balance", label: "Account balance" },
      { href: "#api-rotate", label: "Rotating a proxy" },
      { href: "#api-transactions", label: "Transactions" },
    ],
  },
  {
    title: "Proxy Types",
    links: [
      { href: "#proxy-types", label: "Residential" },
      { href: "#proxy-types", label: "Datacenter" },
      { href: "#proxy-types", label: "SOCKS5" },
      { href: "#proxy-types", label: "HTTP and HTTPS" },
    ],
  },
  {
    title: "Security",
    links: [
      { href: "#security", label: "API keys" },
      { href: "#security", label: "IP whitelisting" },
      { href: "#security", label: "Credential rotation" },
      { href: "/privacy", label: "Data protection" },
    ],
  },
] as const;

export const API_EXAMPLES = [
  {
    id: "api-proxies",
    title: "List your proxies",
    text: "Filter by country and proxy type.",
    label: "GET /proxies",
    code: `curl "${API_BASE}/proxies?country=US&type=RESIDENTIAL" \\
  -H "Authorization: Bearer YOUR_API_KEY"`,
  },
  {
    id: "api-balance",
    title: "Check your balance",
    text: "Returns your prepaid credit balance in cents.",
    label: "GET /account/balance",
    code: `curl ${API_BASE}/account/balance \\
  -H "Authorization: Bearer YOUR_API_KEY"

{"balance_cents": 2500, "currency": "USD"}`,
  },
  {
    id: "api-rotate",
    title: "Rotate a proxy",
    text: "Issues a new IP address for one of your proxies.",
    label: "POST /proxies/{proxy_id}/rotate",
    code: `curl -X POST ${API_BASE}/proxies/{proxy_id}/rotate \\
  -H "Authorization: Bearer YOUR_API_KEY"`,
  },
  {
    id: "api-transactions",
    title: "List transactions",
    text: "Paged with limit and offset.",
    label: "GET /transactions",
    code: `curl "${API_BASE}/transactions?limit=50&offset=0" \\
  -H "Authorization: Bearer YOUR_API_KEY"`,
  },
] as const;

export const PROXY_TYPE_NOTES = [
  { title: "Residential", text: "Household IPs with a 99.9% success rate, city-level targeting and sticky sessions." },
  { title: "Datacenter", text: "Ultra-fast IPs with unlimited bandwidth for high-volume work." },
  { title: "SOCKS5", text: "Protocol-agnostic tunnelling for any TCP traffic, including non-HTTP clients." },
  { title: "HTTP and HTTPS", text: "Plain and TLS-tunnelled web traffic, supported by every HTTP library." },
] as const;

export const SECURITY_NOTES = [
  "Keep API keys secret: send them only in the Authorization header, never in URLs or client-side code.",
  "Restrict proxy use to your servers with IP whitelisting, in addition to username and password.",
  "Rotate a proxy's credentials from your dashboard if you suspect they have leaked.",
  "Every change to your account is recorded in audit logs.",
] as const;

export const SDKS = [
  {
    title: "Python",
    text: "Works with requests, httpx, aiohttp and Scrapy.",
    label: "python",
    code: `import requests

proxy = "http://USERNAME:PASSWORD@PROXY_HOST:PORT"
r = requests.get("https://httpbin.org/ip",
                 proxies={"http": proxy, "https": proxy},
                 timeout=10)
print(r.json())`,
  },
  {
    title: "Node.js",
    text: "Works with fetch (undici), axios, Puppeteer and Playwright.",
    label: "javascript",
    code: `import { fetch, ProxyAgent } from "undici";

const dispatcher = new ProxyAgent(
  "http://USERNAME:PASSWORD@PROXY_HOST:PORT");
const res = await fetch("https://httpbin.org/ip", { dispatcher });
console.log(await res.json());`,
  },
  {
    title: "Go",
    text: "Works with net/http and any client that accepts a Transport.",
    label: "go",
    code: `proxyURL, _ := url.Parse(
  "http://USERNAME:PASSWORD@PROXY_HOST:PORT")
client := &http.Client{Transport: &http.Transport{
  Proxy: http.ProxyURL(proxyURL)}}
resp, err := client.Get("https://httpbin.org/ip")`,
  },
] as const;
