// @ts-check
// Custom realtime messages (topics that are not collection names).

/**
 * Sends `data` as JSON to every client subscribed to `topic`.
 * @param {CoreApp} app
 * @param {string} topic
 * @param {unknown} data
 */
function broadcast(app, topic, data) {
  const message = new SubscriptionMessage({ name: topic, data: JSON.stringify(data) });
  const clients = app.subscriptionsBroker().clients();
  for (const id in clients) {
    if (clients[id].hasSubscription(topic)) {
      clients[id].send(message);
    }
  }
}

const PUBLIC_CONTENT_TOPIC = "public_content";

/**
 * The after-success hook that tells the web server settings or plans changed, so it
 * reloads its snapshot.
 * @param {core.RecordEvent} e
 * @param {"create" | "update" | "delete"} action
 */
function announcePublicContent(e, action) {
  broadcast(e.app, PUBLIC_CONTENT_TOPIC, { collection: e.record?.collection().name, action, id: e.record?.id });
  return e.next();
}

module.exports = { broadcast, announcePublicContent, PUBLIC_CONTENT_TOPIC };
