// What the public pages should show: the stored settings (defaults when the backend has
// no settings collection yet), and helpers to arrange plans.
import type PocketBase from "pocketbase";
import { DEFAULT_SETTINGS, settingsFromRows, type SiteSettings } from "../../../src/lib/site.ts";

export async function currentSettings(pb: PocketBase): Promise<SiteSettings> {
  try {
    const rows = await pb.collection("settings").getFullList<{ key: string; value: string }>({ fields: "key,value" });
    return settingsFromRows(rows);
  } catch {
    return DEFAULT_SETTINGS;
  }
}
