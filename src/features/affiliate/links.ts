// The referral code, link and share links (spec 2.19, 9).

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
