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

module.exports = { broadcast, PUBLIC_CONTENT_TOPIC: "public_content" };
