// The one PocketBase client of the browser islands: same origin (the web server streams
// /api/** to PocketBase), typed collections (the SDK README's TypedPocketBase, over the
// generated record types), no auto-cancellation surprises.
import PocketBase, { type RecordService } from "pocketbase";
import type {
  AdminInvitationRecord,
  AffiliateRecord,
  AuditLogRecord,
  BalanceRecord,
  ChatMessageRecord,
  CommissionRecord,
  ContactMessageRecord,
  PaymentRecord,
  PricingPlanRecord,
  ProxyOrderRecord,
  ProxyRecord,
  ReferralPayoutRecord,
  ReferralRecord,
  SettingRecord,
  SupportTicketRecord,
  TransactionRecord,
  UserRecord,
} from "@/lib/pocketbase-types";

export interface TypedPocketBase extends PocketBase {
  collection(idOrName: string): RecordService;
  collection(idOrName: "users"): RecordService<UserRecord>;
  collection(idOrName: "settings"): RecordService<SettingRecord>;
  collection(idOrName: "pricing_plans"): RecordService<PricingPlanRecord>;
  collection(idOrName: "balances"): RecordService<BalanceRecord>;
  collection(idOrName: "transactions"): RecordService<TransactionRecord>;
  collection(idOrName: "proxies"): RecordService<ProxyRecord>;
  collection(idOrName: "support_tickets"): RecordService<SupportTicketRecord>;
  collection(idOrName: "chat_messages"): RecordService<ChatMessageRecord>;
  collection(idOrName: "affiliates"): RecordService<AffiliateRecord>;
  collection(idOrName: "referrals"): RecordService<ReferralRecord>;
  collection(idOrName: "audit_logs"): RecordService<AuditLogRecord>;
  collection(idOrName: "contact_messages"): RecordService<ContactMessageRecord>;
  collection(idOrName: "payments"): RecordService<PaymentRecord>;
  collection(idOrName: "proxy_orders"): RecordService<ProxyOrderRecord>;
  collection(idOrName: "commissions"): RecordService<CommissionRecord>;
  collection(idOrName: "referral_payouts"): RecordService<ReferralPayoutRecord>;
  collection(idOrName: "admin_invitations"): RecordService<AdminInvitationRecord>;
}

/** A read's options: no auto-cancellation key, and the caller's abort signal when it has one. */
export const withSignal = (signal?: AbortSignal) => ({ requestKey: null, ...(signal ? { signal } : {}) });

/** Rows per request when a list exports every row matching its filters. */
const EXPORT_BATCH = 500;

/** Every record of `records` matching `filter`, in `sort` order, read in batches (a list's export). */
export function readAllForExport<Row>(records: RecordService<Row>, filter: string, sort: string, signal?: AbortSignal): Promise<Row[]> {
  return records.getFullList({ batch: EXPORT_BATCH, filter, sort, ...withSignal(signal) });
}

let client: TypedPocketBase | null = null;

/** The shared browser client (created on first use, so server rendering never touches it). */
export function pb(): TypedPocketBase {
  if (!client) {
    client = new PocketBase(typeof window === "undefined" ? "http://127.0.0.1" : window.location.origin);
    client.autoCancellation(false);
  }
  return client;
}
