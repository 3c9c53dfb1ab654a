// @ts-check
// The console's support and contact inboxes.
// - support_tickets.last_message_at (the newest message, or the ticket's creation) and
//   awaiting_reply (true while the customer's last word has no staff answer), kept by
//   pb_hooks/support.pb.js; the console lists tickets by last activity.
// - contact_messages.read_at (empty = unread), set by admins in the console (the server
//   stamps the time, pb_hooks/contact.pb.js); indexed so the unread list and count are fast.

migrate(
  (app) => {
    const tickets = app.findCollectionByNameOrId("support_tickets");
    tickets.fields.add(new DateField({ name: "last_message_at" }));
    tickets.fields.add(new BoolField({ name: "awaiting_reply" }));
    tickets.addIndex("idx_support_tickets_last_message", false, "last_message_at", "");
    tickets.addIndex("idx_support_tickets_status_last_message", false, "status, last_message_at", "");
    // The inbox's counts per status and awaiting a reply, read from the index alone.
    tickets.addIndex("idx_support_tickets_status_awaiting", false, "status, awaiting_reply", "");
    app.save(tickets);

    // Existing tickets: the newest message's time and who wrote it.
    app
      .db()
      .newQuery(
        `UPDATE support_tickets SET
           last_message_at = COALESCE((SELECT MAX(m.created) FROM chat_messages m WHERE m.ticket_id = support_tickets.id), support_tickets.created),
           awaiting_reply = COALESCE((SELECT CASE WHEN m.is_admin_message THEN 0 ELSE 1 END FROM chat_messages m
                                      WHERE m.ticket_id = support_tickets.id ORDER BY m.created DESC, m.id DESC LIMIT 1), 1)`,
      )
      .execute();

    const contact = app.findCollectionByNameOrId("contact_messages");
    contact.fields.add(new DateField({ name: "read_at" }));
    contact.addIndex("idx_contact_messages_read_created", false, "read_at, created", "");
    app.save(contact);
  },
  (app) => {
    const tickets = app.findCollectionByNameOrId("support_tickets");
    tickets.removeIndex("idx_support_tickets_last_message");
    tickets.removeIndex("idx_support_tickets_status_last_message");
    tickets.removeIndex("idx_support_tickets_status_awaiting");
    tickets.fields.removeByName("last_message_at");
    tickets.fields.removeByName("awaiting_reply");
    app.save(tickets);

    const contact = app.findCollectionByNameOrId("contact_messages");
    contact.removeIndex("idx_contact_messages_read_created");
    contact.fields.removeByName("read_at");
    app.save(contact);
  },
);
