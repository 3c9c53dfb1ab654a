// The HTTP mailbox of the run's SMTP sink, where specs read the mails the shop sent.
export const mailbox = (): string => {
  const url = process.env["E2E_MAILBOX_URL"];
  if (!url) throw new Error("E2E_MAILBOX_URL is not set (tests/e2e/support/global-setup.ts)");
  return url;
};
