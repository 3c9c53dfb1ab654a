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
}

export type TransactionType = "CREDIT" | "DEBIT" | "PROXY_PURCHASE" | "REFUND";

export interface TransactionRecord extends RecordModel {
  user_id: string;
  type: TransactionType;
  amount_cents: number;
  balance_after_cents: number;
  description: string;
  stripe_payment_intent_id: string;
  created: string;
}

export type ProxyStatus = "AVAILABLE" | "ASSIGNED" | "EXPIRED" | "MAINTENANCE";

export interface ProxyRecord extends RecordModel {
  host: string;
  port: number;
  username: string;
  password: string;
  type: ProxyType;
  country: string;
  state: string;
  city: string;
  status: ProxyStatus;
  assigned_to_user_id: string;
  expires_at: string;
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
  created: string;
}
