// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// A plan's `features` is always a list of non-empty texts (the public pages map over it), and
// a committed plan change clears the price list purchases are priced from.

onRecordValidate((e) => {
  const record = e.record;
  if (!record) return e.next();
  const raw = record.getString("features");
  const features = raw === "" || raw === "null" ? [] : JSON.parse(raw);
  if (!Array.isArray(features) || features.some((f) => typeof f !== "string" || f.trim() === "")) {
    throw new BadRequestError("Invalid plan.", {
      features: { code: "validation_invalid_features", message: "Features must be a list of non-empty texts." },
    });
  }
  record.set(
    "features",
    features.map((f) => f.trim()),
  );
  e.next();
}, "pricing_plans");

// Purchases price from a cached list (lib/proxies.js priceList): a committed plan change clears it.
onRecordAfterCreateSuccess((e) => {
  e.app.store().remove(require(`${__hooks}/lib/proxies.js`).PRICE_CACHE_KEY);
  e.next();
}, "pricing_plans");

onRecordAfterUpdateSuccess((e) => {
  e.app.store().remove(require(`${__hooks}/lib/proxies.js`).PRICE_CACHE_KEY);
  e.next();
}, "pricing_plans");

onRecordAfterDeleteSuccess((e) => {
  e.app.store().remove(require(`${__hooks}/lib/proxies.js`).PRICE_CACHE_KEY);
  e.next();
}, "pricing_plans");
