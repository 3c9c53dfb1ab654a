// @ts-check
// Support tickets and their chat. A customer opens tickets (always "open") and writes on
// their own tickets until closed; admins read everything, reply and change status.
// pb_hooks/support.pb.js forces status, sender and is_admin_message as well.

const ADMIN = "@request.auth.is_admin = true";
const LOCKED = /** @type {string} */ (/** @type {unknown} */ (null));

migrate(
  (app) => {
    const tickets = new Collection({
      type: "base",
      name: "support_tickets",
      listRule: '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)',
      viewRule: '@request.auth.id != "" && (user_id = @request.auth.id || @request.auth.is_admin = true)',
      createRule:
        '@request.auth.id != "" && @request.body.user_id = @request.auth.id && (@request.body.status:isset = false || @request.body.status = "open")',
      updateRule: ADMIN,
      deleteRule: LOCKED,
      fields: /** @type {any} */ ([
        { name: "user_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
        { name: "subject", type: "text", required: true, min: 5, max: 200 },
        { name: "priority", type: "select", required: true, maxSelect: 1, values: ["low", "medium", "high", "urgent"] },
        { name: "status", type: "select", required: true, maxSelect: 1, values: ["open", "pending", "closed"] },
        { name: "created", type: "autodate", onCreate: true },
        { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
      ]),
      indexes: /** @type {any} */ ([
        "CREATE INDEX idx_support_tickets_user_created ON support_tickets (user_id, created)",
        "CREATE INDEX idx_support_tickets_status_created ON support_tickets (status, created)",
        "CREATE INDEX idx_support_tickets_created ON support_tickets (created)",
      ]),
    });
    app.save(tickets);

    app.save(
      new Collection({
        type: "base",
        name: "chat_messages",
        listRule: '@request.auth.id != "" && (ticket_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        viewRule: '@request.auth.id != "" && (ticket_id.user_id = @request.auth.id || @request.auth.is_admin = true)',
        createRule: [
          '@request.auth.id != ""',
          "@request.body.sender_id = @request.auth.id",
          '(@request.auth.is_admin = true || (@request.body.ticket_id.user_id = @request.auth.id && @request.body.ticket_id.status != "closed" && @request.body.is_admin_message != true))',
        ].join(" && "),
        updateRule: LOCKED,
        deleteRule: LOCKED,
        fields: /** @type {any} */ ([
          { name: "ticket_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: tickets.id },
          { name: "sender_id", type: "relation", required: true, maxSelect: 1, cascadeDelete: true, collectionId: "_pb_users_auth_" },
          { name: "message", type: "text", required: true, max: 5000 },
          { name: "is_admin_message", type: "bool" },
          { name: "created", type: "autodate", onCreate: true },
          { name: "updated", type: "autodate", onCreate: true, onUpdate: true },
        ]),
        indexes: /** @type {any} */ (["CREATE INDEX idx_chat_messages_ticket_created ON chat_messages (ticket_id, created)"]),
      }),
    );
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId("chat_messages"));
    app.delete(app.findCollectionByNameOrId("support_tickets"));
  },
);
