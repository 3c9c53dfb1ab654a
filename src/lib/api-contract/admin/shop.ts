// The public account routes under /api/shop (pb_hooks/accounts.pb.js, proxies.pb.js): sign-up,
// the invitee's side of an admin invitation, and the stock figure the public pages show. No
// sign-in; rate limited per address (lib/settings/rate-limits.js). The old GET of the
// invitation check is left out: it only ever answers 405 (send the token in a body).
import * as v from "valibot";
import { countryNames as countries } from "../../shared-data";
import { routeList, routesOf } from "../define";
import { AuthAnswer, Count, DbDate } from "./common";

const SHOP = "/api/shop" as const;

const EMAIL_MESSAGE = "Please enter a valid email address";
const email = v.pipe(
  v.string(EMAIL_MESSAGE),
  v.email(EMAIL_MESSAGE),
  v.maxLength(255, EMAIL_MESSAGE),
  v.metadata({ errorCode: "validation_invalid_email" }),
);
/** A person's name as signup.js personErrors checks it (trimmed, 2-100 characters; one message). */
const personName = (message: string) =>
  v.pipe(v.string(message), v.minLength(2, message), v.maxLength(100, message), v.metadata({ errorCode: "validation_length" }));
const firstName = personName("First name must be at least 2 characters");
const lastName = personName("Last name must be at least 2 characters");

const shop = routesOf({ base: SHOP, tag: "Sign-up", scope: "public" });

export const signUp = shop.post("/signup", {
  summary: "Create a customer account and sign in",
  description:
    "A new account with a secret nobody learns (the customer signs in later with an e-mailed code or a password they set), the referral of the affiliate code `ref` (an unknown or malformed code is ignored) and the verification mail. 400 per field, or for an e-mail that has an account.",
  body: v.pipe(
    v.object({
      first_name: firstName,
      last_name: lastName,
      email,
      country: v.pipe(
        v.picklist(countries as [string, ...string[]], "Please select your country"),
        v.metadata({ errorCode: "validation_country" }),
        v.description("The country's English name, as the sign-up form lists it."),
      ),
      ref: v.optional(v.pipe(v.string(), v.description("An affiliate code from a ?ref= link."))),
    }),
    v.examples([{ first_name: "Jane", last_name: "Doe", email: "jane.doe@example.com", country: "Germany" }]),
  ),
  response: AuthAnswer,
});

const InvitationToken = v.pipe(v.string(), v.description("The token of the registration link (in the body: URLs are logged)."));

export const checkAdminInvitation = shop.post("/admin-invitations/check", {
  summary: "Check an admin invitation link",
  description:
    "403 while admin registration is closed or in demo mode; 404 for an unknown (or missing) token; 410 for a used, revoked or expired one.",
  body: v.pipe(v.object({ token: v.optional(InvitationToken) }), v.examples([{ token: "c2hvcC1pbnZpdGF0aW9uLWV4YW1wbGU" }])),
  response: v.object({
    valid: v.literal(true),
    email: v.pipe(v.nullable(v.string()), v.description("The only address the new administrator may use; null for any.")),
    expires_at: DbDate,
  }),
  errors: [403, 404, 410],
});

export const registerAdmin = shop.post("/admin-register", {
  summary: "Create an admin account with an invitation and sign in",
  description:
    "A verified, onboarded admin; the invitation is spent in the same transaction (audited invitations.accept). Refusals as the check's, and 400 per field: the e-mail is not the invited one or has an account, a weak password.",
  body: v.pipe(
    v.object({
      token: v.optional(InvitationToken),
      first_name: firstName,
      last_name: lastName,
      email,
      password: v.pipe(
        v.string("Password must be at least 8 characters"),
        v.minLength(8, "Password must be at least 8 characters"),
        v.maxLength(72, "Password must be at most 72 characters."),
        v.description("At least 8 characters with an uppercase letter, a number and a special character; at most 72."),
      ),
    }),
    v.examples([
      {
        token: "c2hvcC1pbnZpdGF0aW9uLWV4YW1wbGU",
        first_name: "Alex",
        last_name: "Admin",
        email: "alex.admin@example.com",
        password: "Str0ng!Passw0rd",
      },
    ]),
  ),
  response: AuthAnswer,
  errors: [403, 404, 410],
});

export const getStockSummary = shop.get("/stock-summary", {
  tag: "Catalog",
  summary: "How many countries have a proxy in stock",
  description: "What the public pages state; announced on the realtime topic when it changes.",
  response: v.object({ countries: Count }),
});

export const shopRoutes = routeList({ signUp, checkAdminInvitation, registerAdmin, getStockSummary });
