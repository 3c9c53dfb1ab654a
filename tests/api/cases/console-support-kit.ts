// The console-support shop's helpers, shared by console-support.test.ts and its case modules.
import type { RecordModel } from "pocketbase";
import { auditRows } from "../../support/admin.ts";
import type { ShopFixture } from "../../support/use-shop.ts";

export interface ConsoleSupportKit {
  adminId: () => string;
  /** A short text unique within the run. */
  tag: () => string;
  /** The audit rows about one record, oldest first. */
  auditRows: (targetId: string) => Promise<RecordModel[]>;
}

export function consoleSupportKit(shop: ShopFixture): ConsoleSupportKit {
  let seq = 0;
  return {
    adminId: () => shop.admin.authStore.record!.id,
    tag: () => `${Date.now().toString(36)}${seq++}`,
    auditRows: (targetId) => auditRows(shop.su, shop.su.filter("target_id = {:id}", { id: targetId })),
  };
}
