// @ts-check
// Support attachments: images and PDFs up to 5 MB on a chat message, stored as protected
// files. PocketBase serves a protected file only with a file token of a user who may view
// the message (chat_messages viewRule: the ticket's owner or an admin).

migrate(
  (app) => {
    const messages = app.findCollectionByNameOrId("chat_messages");
    messages.fields.add(
      new FileField({
        name: "attachments",
        maxSelect: 5,
        maxSize: 5 * 1024 * 1024,
        mimeTypes: ["image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"],
        protected: true,
      }),
    );
    app.save(messages);
  },
  (app) => {
    const messages = app.findCollectionByNameOrId("chat_messages");
    messages.fields.removeByName("attachments");
    app.save(messages);
  },
);
