// The facts plan feature texts may name (issue #28), kept apart from the schemas so a page
// that fills them (the pricing page, the console's plan form) loads no schema with them.

/**
 * Sticky sessions of RESIDENTIAL proxies (`USERNAME-session-<id>-sesstime-<minutes>`): the
 * minutes a session keeps its upstream by default and at most. The gateway's
 * DefaultSessionTime and MaxSessionMinutes are the same (a Go test holds them to facts.json).
 */
export const GATEWAY_SESSION_MINUTES = { default: 10, max: 1440 } as const;

/**
 * The facts a plan's feature text may name instead of stating a number ("Sticky sessions up
 * to {session_max_hours} hours"), with what each stands for: src/lib/plan-features.ts fills
 * them where plans are shown; the server refuses a plan naming any other.
 */
export const PLAN_PLACEHOLDERS = {
  session_max_minutes: "the longest sticky session, in minutes",
  session_max_hours: "the longest sticky session, in hours",
  session_default_minutes: "a sticky session's default length, in minutes",
  term_days: "the days a proxy is bought for",
  countries: "the countries with a proxy in stock",
} as const;
