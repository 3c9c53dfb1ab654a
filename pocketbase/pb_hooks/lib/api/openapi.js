// @ts-check
// GET /api/v1/openapi.json: the developer API's OpenAPI 3.1 document (lib/api/openapi.json,
// written from src/lib/api-contract/ by `npm run openapi`), with this shop's address as its
// server. Public: the contract is no secret.

/**
 * @param {core.RequestEvent} e
 */
function documentRoute(e) {
  const doc = JSON.parse(toString($os.readFile(`${__hooks}/lib/api/openapi.json`)));
  // The shop's address (meta.appURL follows SHOP_APP_URL): the web server passes /api/ on.
  const base = String(e.app.settings().meta.appURL || "").replace(/\/+$/, "") || `http://${e.request?.host ?? "127.0.0.1"}`;
  doc.servers = [{ url: base, description: "This shop" }];
  e.response.header().set("Cache-Control", "public, max-age=300");
  return e.json(200, doc);
}

module.exports = { documentRoute };
