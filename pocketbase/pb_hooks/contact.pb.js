// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Contact form: trimmed values (so the length checks see what was meant) and the
// sender's IP in the hidden `ip` field.

onRecordCreateRequest((e) => {
  if (e.record) {
    for (const field of ["name", "email", "subject", "message"]) {
      e.record.set(field, e.record.getString(field).trim());
    }
    e.record.set("ip", e.realIP());
  }
  e.next();
}, "contact_messages");

onRecordUpdateRequest((e) => {
  if (e.record) {
    for (const field of ["name", "email", "subject", "message"]) {
      e.record.set(field, e.record.getString(field).trim());
    }
  }
  e.next();
}, "contact_messages");
