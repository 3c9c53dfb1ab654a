/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** Settings and active plans from the in-memory snapshot (no database read). */
    site: import("@/lib/site").SiteContent;
  }
}
