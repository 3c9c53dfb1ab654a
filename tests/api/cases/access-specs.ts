// The access matrix's table: per collection, how to make a row of A or B, what each caller
// may send, and the status each caller gets for list, view, create, update and delete (the
// rows by area in access-specs-*.ts).
import type { CollectionSpec } from "./access-spec-kit.ts";
import { auditLogsSpec, pricingPlansSpec, settingsSpec, usersSpec } from "./access-specs-accounts.ts";
import {
  affiliatesSpec,
  balancesSpec,
  commissionsSpec,
  paymentsSpec,
  proxyOrdersSpec,
  referralsSpec,
  transactionsSpec,
} from "./access-specs-money.ts";
import { gatewayStatsSpec, gatewayTokensSpec, proxyUsageSpec } from "./access-specs-gateway.ts";
import { chatMessagesSpec, contactMessagesSpec, proxiesSpec, supportTicketsSpec } from "./access-specs-proxies-support.ts";

export const SPECS: CollectionSpec[] = [
  usersSpec,
  settingsSpec,
  pricingPlansSpec,
  balancesSpec,
  transactionsSpec,
  proxiesSpec,
  supportTicketsSpec,
  chatMessagesSpec,
  affiliatesSpec,
  referralsSpec,
  paymentsSpec,
  proxyOrdersSpec,
  commissionsSpec,
  auditLogsSpec,
  contactMessagesSpec,
  proxyUsageSpec,
  gatewayStatsSpec,
  gatewayTokensSpec,
];
