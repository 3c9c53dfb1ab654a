// The demo accounts a test PocketBase seeds (SHOP_DEMO_SEED=true) and the environment that asks for them.

export interface DemoAccounts {
  admin: { email: string; password: string };
  customer: { email: string; password: string };
}

export const DEMO: DemoAccounts = {
  admin: { email: "admin@demo.test", password: "DemoAdmin#Test2026" },
  customer: { email: "customer@demo.test", password: "DemoCustomer#Test2026" },
};

/** SHOP_DEMO_SEED=true with the accounts' e-mails and passwords. */
export function demoEnv(accounts: DemoAccounts = DEMO): Record<string, string> {
  return {
    SHOP_DEMO_SEED: "true",
    SHOP_DEMO_ADMIN_EMAIL: accounts.admin.email,
    SHOP_DEMO_ADMIN_PASSWORD: accounts.admin.password,
    SHOP_DEMO_CUSTOMER_EMAIL: accounts.customer.email,
    SHOP_DEMO_CUSTOMER_PASSWORD: accounts.customer.password,
  };
}
