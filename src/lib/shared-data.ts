// The JSON files src shares with the hooks (pocketbase/pb_hooks/lib/): the hooks read the same
// files, so a page can never state a fact the server does not hold. Every src module reads
// them here, never by a path into pocketbase/. (A default import: Playwright's loader gives a
// JSON module no named parts, so a namespace import reads undefined there.)
import catalog from "../../pocketbase/pb_hooks/lib/catalog.json" with { type: "json" };

/** The shop's fixed facts (types, terms, limits): src/lib/catalog.ts names them. */
export { catalog };
/** The country names the profile and sign-up forms offer. */
export { default as countryNames } from "../../pocketbase/pb_hooks/lib/countries.json" with { type: "json" };
/** ISO 3166-1 alpha-2 code → English name. */
export { default as isoCountries } from "../../pocketbase/pb_hooks/lib/iso-countries.json" with { type: "json" };
/** The built-in states and cities of the countries in stock by default. */
export { default as locations } from "../../pocketbase/pb_hooks/lib/locations.json" with { type: "json" };
/** The password rules: a pattern and its message each. */
export { default as passwordRules } from "../../pocketbase/pb_hooks/lib/password-rules.json" with { type: "json" };
/** The site settings a new shop starts with. */
export { default as defaultSettings } from "../../pocketbase/pb_hooks/lib/default-settings.json" with { type: "json" };
/** The developer API's OpenAPI document (written by `npm run openapi`). */
export { default as openApiDocument } from "../../pocketbase/pb_hooks/lib/api/openapi.json" with { type: "json" };
/** The contract's facts for the hooks (`npm run openapi` writes them): the gateway's default ports, among others. */
export { default as contractFacts } from "../../pocketbase/pb_hooks/lib/facts.json" with { type: "json" };
