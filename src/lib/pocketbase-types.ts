// Record shapes of the PocketBase collections (docs/data-model.md is the contract).
// Money is integer cents. `created`/`updated` are PocketBase autodate fields.
import type { RecordModel } from "pocketbase";
import type { PricingPlan, ProxyType } from "@/lib/site";

export type { PricingPlan, ProxyType };

export interface UserRecord extends RecordModel {
  email: string;
  verified: boolean;
  first_name: string;
  last_name: string;
  country: string;
  is_admin: boolean;
  onboarding_completed: boolean;
  onboarding_completed_at: string;
  /** False until the user chooses a password (sign-up gives a random secret); server-set. */
  password_set: boolean;
  created: string;
  updated: string;
}

export interface SettingRecord extends RecordModel {
  key: string;
  value: string;
}

export interface BalanceRecord extends RecordModel {
  user_id: string;
  balance_cents: number;
  created: string;
  /** Changes with every ledger entry (the balance is a record save): orders reads and events. */
  updated: string;
}

export type TransactionType = "CREDIT" | "DEBIT" | "PROXY_PURCHASE" | "REFUND";

export interface TransactionRecord extends RecordModel {
  user_id: string;
  type: TransactionType;
  amount_cents: number;
  balance_after_cents: number;
  description: string;
  stripe_payment_intent_id: string;
  /** What the entry is for ("order:<id>", "payment:<id>", "welcome" ...); server-set. */
  reference: string;
  created: string;
}

export type ProxyStatus = "AVAILABLE" | "ASSIGNED" | "EXPIRED" | "MAINTENANCE";

export interface ProxyRecord extends RecordModel {
  host: string;
  port: number;
  username: string;
  /**
   * The plaintext password, added by the server for whoever may view the proxy; stored
   * only encrypted (the hidden `password_encrypted`, never sent to the browser).
   */
  password: string;
  type: ProxyType;
  country: string;
  state: string;
  city: string;
  status: ProxyStatus;
  assigned_to_user_id: string;
  expires_at: string;
  /** Renewed by the expiry job at expiry when the balance covers it. */
  auto_renew: boolean;
  expiry_notice_sent_at: string;
  created: string;
}

/** A proxy purchase or renewal (server-written; the ledger row is transaction_id). */
export interface ProxyOrderRecord extends RecordModel {
  user_id: string;
  kind: "purchase" | "renewal";
  proxy_type: ProxyType | "";
  country: string;
  state: string;
  city: string;
  quantity: number;
  total_cents: number;
  items: { id: string; unit_price_cents: number }[];
  transaction_id: string;
  status: "completed" | "refunded";
  refunded_at: string;
  created: string;
}

export type PaymentStatus = "pending" | "paid" | "failed";

/** One credit checkout attempt; amount_cents is the money paid (without the bonus). */
export interface PaymentRecord extends RecordModel {
  user_id: string;
  package_id: string;
  amount_cents: number;
  currency: string;
  credits_cents: number;
  bonus_cents: number;
  provider: "stripe" | "test";
  provider_session_id: string;
  provider_payment_id: string;
  checkout_url: string;
  status: PaymentStatus;
  paid_at: string;
  failure_reason: string;
  created: string;
}

/** 20% of a referred customer's paid credit purchase, owed to their affiliate. */
export interface CommissionRecord extends RecordModel {
  affiliate_id: string;
  referral_id: string;
  payment_id: string;
  amount_cents: number;
  status: "pending" | "paid";
  paid_at: string;
  created: string;
}

export type TicketPriority = "low" | "medium" | "high" | "urgent";
export type TicketStatus = "open" | "pending" | "closed";

export interface SupportTicketRecord extends RecordModel {
  user_id: string;
  subject: string;
  priority: TicketPriority;
  status: TicketStatus;
  created: string;
}

export interface ChatMessageRecord extends RecordModel {
  ticket_id: string;
  sender_id: string;
  message: string;
  is_admin_message: boolean;
  /** Protected file names (images, PDFs); open them with a file token. */
  attachments: string[];
  created: string;
}

export interface AffiliateRecord extends RecordModel {
  user_id: string;
  code: string;
  total_referrals: number;
  total_earnings_cents: number;
  pending_earnings_cents: number;
}

export interface ReferralRecord extends RecordModel {
  affiliate_id: string;
  referred_user_id: string;
  commission_cents: number;
  status: "pending" | "paid";
  paid_at: string;
  created: string;
}

export interface AuditLogRecord extends RecordModel {
  admin_id: string;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
  created: string;
}

export type ContactMessageType = "general" | "technical" | "billing" | "partnership";

export interface ContactMessageRecord extends RecordModel {
  name: string;
  email: string;
  subject: string;
  message: string;
  type: ContactMessageType;
  /** When an admin read it ("" = unread); the server stamps the time. */
  read_at: string;
  created: string;
}
