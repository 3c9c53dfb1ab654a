/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Settings and active plans from the in-memory snapshot (no database read). */
    site: import("@/lib/site").SiteContent;
    /** The signed-in user on app pages, verified by PocketBase in src/middleware.ts. */
    user?: import("@/lib/pocketbase-types").UserRecord | null;
    /** The app page to retry when its session check could not be made. */
    retryPath?: string;
  }
}
