// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// A plan always has a name, a price of at least one cent and at least one feature (the
// console's form rules, spec 5, enforced here for every save: records API, hooks and the
// dashboard); `features` is a list of non-empty texts (the public pages map over it), and
// a committed plan change makes the cached price list purchases are priced from old.

onRecordValidate((e) => {
  const record = e.record;
  if (!record) return e.next();
  /** @type {Record<string, ValidationError>} */
  const errors = {};
  /** @type {string[]} */
  const messages = [];
  /**
   * @param {string} field
   * @param {string} code
   * @param {string} message
   */
  const fail = (field, code, message) => {
    errors[field] = new ValidationError(code, message);
    messages.push(message);
  };

  const name = record.getString("name").trim();
  record.set("name", name);
  if (!name) fail("name", "validation_required", "Name is required");

  const price = record.getFloat("price_cents");
  if (!(price >= 1)) fail("price_cents", "validation_min_number_constraint", "Price must be greater than 0");
  else if (!Number.isSafeInteger(price)) {
    fail("price_cents", "validation_only_int_constraint", "Price must be a whole number of cents");
  }

  const raw = record.getString("features");
  /** @type {unknown} */
  let features = [];
  try {
    features = raw === "" || raw === "null" ? [] : JSON.parse(raw);
  } catch (_) {
    features = null;
  }
  if (!Array.isArray(features) || features.some((f) => typeof f !== "string" || f.trim() === "")) {
    fail("features", "validation_invalid_features", "Features must be a list of non-empty texts.");
  } else if (features.length === 0) {
    fail("features", "validation_required", "Features are required");
  } else {
    record.set(
      "features",
      features.map((f) => String(f).trim()),
    );
  }

  if (messages.length > 0) {
    throw new BadRequestError(messages.length === 1 ? messages[0] : "Please check the highlighted fields.", errors);
  }
  e.next();
}, "pricing_plans");

// Purchases price from a cached list (lib/proxies/proxies.js priceList): a committed plan change
// gives the plans a new version, so no list read before it is served again.
onRecordAfterCreateSuccess((e) => {
  require(`${__hooks}/lib/proxies/proxies.js`).bumpPriceVersion(e.app);
  e.next();
}, "pricing_plans");

onRecordAfterUpdateSuccess((e) => {
  require(`${__hooks}/lib/proxies/proxies.js`).bumpPriceVersion(e.app);
  e.next();
}, "pricing_plans");

onRecordAfterDeleteSuccess((e) => {
  require(`${__hooks}/lib/proxies/proxies.js`).bumpPriceVersion(e.app);
  e.next();
}, "pricing_plans");
