// A short tag that no other row of this run carries (hosts, subjects, e-mails).
let seq = 0;

export const tag = (): string => `${Date.now().toString(36)}${seq++}`;
