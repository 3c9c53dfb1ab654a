// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// A plan's `features` is always a list of non-empty texts (the public pages map over it).

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
