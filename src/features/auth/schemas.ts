// Sign-in and sign-up forms (spec section 5). The server (POST /api/shop/signup and
// PocketBase's auth) checks the same; these give instant feedback.
import * as v from "valibot";
import { COUNTRIES } from "@/features/auth/countries";

export const SignInSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.email("Invalid email address")),
  password: v.pipe(v.string(), v.minLength(1, "Password is required")),
});
export type SignInInput = v.InferInput<typeof SignInSchema>;
export type SignInOutput = v.InferOutput<typeof SignInSchema>;

export const SignInCodeRequestSchema = v.object({
  email: v.pipe(v.string(), v.trim(), v.email("Invalid email address")),
});
export type SignInCodeRequestInput = v.InferInput<typeof SignInCodeRequestSchema>;

export const SignInCodeSchema = v.object({
  code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, "Enter the 6-digit code from the email")),
});
export type SignInCodeInput = v.InferInput<typeof SignInCodeSchema>;

export const SignUpSchema = v.object({
  firstName: v.pipe(v.string(), v.trim(), v.minLength(2, "First name must be at least 2 characters")),
  lastName: v.pipe(v.string(), v.trim(), v.minLength(2, "Last name must be at least 2 characters")),
  email: v.pipe(v.string(), v.trim(), v.email("Please enter a valid email address")),
  country: v.pipe(
    v.string(),
    v.minLength(1, "Please select your country"),
    v.check((value) => COUNTRIES.includes(value), "Please select your country"),
  ),
});
export type SignUpInput = v.InferInput<typeof SignUpSchema>;
export type SignUpOutput = v.InferOutput<typeof SignUpSchema>;
