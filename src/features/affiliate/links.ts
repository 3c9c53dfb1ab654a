// The referral code, link, share links (spec 2.19, 9) and the marketing materials made of
// them: a banner (an HTML snippet to paste in a website) and a text for e-mails and posts.

/** The code when the server has none stored: the first 8 characters of the user id, upper case. */
export function referralCode(userId: string): string {
  return userId.slice(0, 8).toUpperCase();
}

/** origin + "/signup?ref=" + code. */
export function referralLink(origin: string, code: string): string {
  return `${origin}/signup?ref=${encodeURIComponent(code)}`;
}

export interface ShareLink {
  site: "X" | "Facebook" | "LinkedIn";
  href: string;
}

/** Share-intent links of three social sites for the referral link. */
export function shareLinks(link: string, siteName: string): ShareLink[] {
  const url = encodeURIComponent(link);
  const text = encodeURIComponent(`Fast, reliable residential and datacenter proxies at ${siteName}. Sign up with my link:`);
  return [
    { site: "X", href: `https://twitter.com/intent/tweet?text=${text}&url=${url}` },
    { site: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${url}` },
    { site: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${url}` },
  ];
}

/** "monthly" -> "Monthly". */
export function payoutScheduleLabel(schedule: string): string {
  return schedule ? schedule.charAt(0).toUpperCase() + schedule.slice(1) : "";
}

/** The banner's look, shared by the HTML snippet and the page's preview of it. */
export const BANNER_STYLE = {
  display: "inline-block",
  padding: "12px 20px",
  borderRadius: "8px",
  background: "#1d4ed8",
  color: "#ffffff",
  font: "600 16px/1.4 system-ui, sans-serif",
  textDecoration: "none",
} as const;

/** "<siteName>: fast residential and datacenter proxies. Sign up →" */
export function bannerText(siteName: string): string {
  return `${siteName}: fast residential and datacenter proxies. Sign up \u2192`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** The banner as an HTML snippet to paste in a page: a styled link to `link` (text escaped). */
export function bannerHtml(link: string, siteName: string): string {
  const style = Object.entries(BANNER_STYLE)
    .map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}:${value}`)
    .join(";");
  return `<a href="${escapeHtml(link)}" style="${escapeHtml(style)}">${escapeHtml(bannerText(siteName))}</a>`;
}

/** A text with the link for e-mails and posts. */
export function promoText(link: string, siteName: string): string {
  return `I use ${siteName} for residential and datacenter proxies: fast, and you pay per proxy. Sign up with my link: ${link}`;
}
