// Lint: typed typescript-eslint over the app, tests and scripts; React hooks and jsx-a11y
// for the islands; the Astro plugin for .astro files; plain recommended rules for the
// PocketBase hooks (checked JS, typed by `tsc -p pocketbase/jsconfig.json`). Formatting is
// Prettier's (eslint-config-prettier turns off the rules it owns). The feature boundary:
// a feature imports only shared code (components, lib, stores), never another feature.
import { readdirSync } from "node:fs";
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import astro from "eslint-plugin-astro";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const FEATURES = readdirSync(new URL("src/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const BOUNDARY_ZONES = [
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}`,
    from: "./src/features",
    except: [`./${name}`],
    message: "A feature imports only src/components, src/lib and src/stores: move what two features share there.",
  })),
  {
    target: ["./src/components", "./src/lib", "./src/stores"],
    from: "./src/features",
    message: "Shared code never imports a feature.",
  },
  {
    target: "./src/features",
    from: ["./src/pages", "./src/layouts"],
    message: "Pages and layouts compose features, not the other way round.",
  },
];

export default tseslint.config(
  {
    ignores: [
      ".tmp/",
      "dist/",
      ".astro/",
      "node_modules/",
      "pocketbase/bin/",
      "pocketbase/types/",
      "pb_data/",
      "test-results/",
      "playwright-report/",
    ],
  },
  js.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Fire-and-forget is deliberate where it is written as `void promise`.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: true }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ["src/**/*.tsx"],
    extends: [reactHooks.configs.flat["recommended-latest"], jsxA11y.flatConfigs.recommended],
    rules: {
      // A scrolling region or log must be reachable by keyboard (axe scrollable-region-focusable):
      // tabIndex={0} is right on role="region" and role="log".
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region", "log"], allowExpressionValues: true }],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // Tests read loosely typed API answers (RecordModel fields are `any`).
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      // Table rows implement async interfaces; some need no await.
      "@typescript-eslint/require-await": "off",
    },
  },
  ...astro.configs["flat/recommended"],
  {
    files: ["src/**/*.{ts,tsx,astro}"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: { "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: BOUNDARY_ZONES }] },
  },
  {
    files: ["pocketbase/**/*.js"],
    languageOptions: {
      sourceType: "commonjs",
      ecmaVersion: 2022,
      // The JS VM's globals ($app, routerAdd, Record ...) are declared in pocketbase/types.
      globals: { ...globals.commonjs },
    },
    rules: {
      "no-undef": "off",
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["**/*.{js,mjs}"],
    ignores: ["pocketbase/**"],
    languageOptions: { globals: { ...globals.node } },
  },
  prettier,
);
