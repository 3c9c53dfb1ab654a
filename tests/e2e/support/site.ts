// What the public pages should show: the stored settings, and helpers to arrange plans.
import type PocketBase from "pocketbase";
import { settingsFromRows, type SiteSettings } from "../../../src/lib/site.ts";

export async function currentSettings(pb: PocketBase): Promise<SiteSettings> {
  const rows = await pb.collection("settings").getFullList<{ key: string; value: string }>({ fields: "key,value" });
  return settingsFromRows(rows);
}
