// @ts-check
// SHOP_DEMO_MODE on the very first start: the settings rows exist only once the migrations
// ran, after the start hook (console-settings.pb.js) that applies it on later starts.

migrate(
  (app) => {
    /** @type {typeof import("../pb_hooks/lib/core/demo-mode.js")} */
    const settings = require(`${__hooks}/lib/core/demo-mode.js`);
    settings.applyDemoModeEnv(app);
  },
  () => {
    // Nothing to undo: the setting keeps its value.
  },
);
