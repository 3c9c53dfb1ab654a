// @ts-check
/// <reference path="../types/pocketbase.d.ts" />
// Support: behind the API rules, force what a client must not choose. A new ticket is
// always open and owned by its author; a chat message's sender is the signed-in user and
// is_admin_message follows the sender's is_admin.

onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("user_id", e.auth.id);
    e.record.set("status", "open");
    e.record.set("subject", e.record.getString("subject").trim());
    if (!e.record.getString("priority")) e.record.set("priority", "medium");
  }
  e.next();
}, "support_tickets");

onRecordCreateRequest((e) => {
  if (!e.hasSuperuserAuth() && e.auth && e.record) {
    e.record.set("sender_id", e.auth.id);
    e.record.set("is_admin_message", e.auth.getBool("is_admin"));
  }
  if (e.record) e.record.set("message", e.record.getString("message").trim());
  e.next();
}, "chat_messages");
