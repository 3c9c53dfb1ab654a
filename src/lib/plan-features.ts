// Plan feature texts that name a number read it from the fact they describe (issue #28):
// an admin writes "Sticky sessions up to {session_max_hours} hours" and the page says what
// the gateway does today. Plain text passes unchanged; a line whose fact is unknown (no
// country in stock) is left out rather than shown with a wrong number.
import { GATEWAY_SESSION_MINUTES, PLAN_PLACEHOLDERS } from "@/lib/api-contract/plan-facts";
import { TERM_DAYS } from "@/lib/catalog";

/** What the placeholders are filled from besides the contract: the live stock. */
export interface PlanFacts {
  /** Countries with a proxy in stock (0: none or unknown). */
  countries: number;
}

/** Every placeholder a feature text may hold, with what it stands for (the contract's). */
export { PLAN_PLACEHOLDERS };

type Placeholder = keyof typeof PLAN_PLACEHOLDERS;

function values(facts: PlanFacts): Record<Placeholder, number | null> {
  return {
    session_max_minutes: GATEWAY_SESSION_MINUTES.max,
    session_max_hours: Math.floor(GATEWAY_SESSION_MINUTES.max / 60),
    session_default_minutes: GATEWAY_SESSION_MINUTES.default,
    term_days: TERM_DAYS,
    countries: facts.countries > 0 ? facts.countries : null,
  };
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The placeholders a text names that are not known (a typo an admin should see). */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "").filter((name) => !(name in PLAN_PLACEHOLDERS));
}

/** A plan's features as shown: placeholders filled (numbers in en-US), lines without their fact left out. */
export function planFeatures(features: readonly string[], facts: PlanFacts): string[] {
  const known = values(facts);
  return features.flatMap((text) => {
    let missing = false;
    const filled = text.replace(PLACEHOLDER, (whole, name: string) => {
      if (!(name in known)) return whole;
      const value = known[name as Placeholder];
      if (value === null) missing = true;
      return value === null ? whole : value.toLocaleString("en-US");
    });
    return missing ? [] : [filled];
  });
}
