import { useEffect } from "react";
import { SignUpForm } from "@/features/auth/components/sign-up-form";
import { startAuth } from "@/stores/auth";

/** /signup: heading, link to sign in, the form (spec 2.11). */
export function SignUpPage() {
  useEffect(() => startAuth(), []);
  return (
    <div className="mx-auto w-full max-w-lg px-4 py-12">
      <div className="rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-2xl font-bold text-slate-900">Create Your Account</h1>
        <p className="mt-2 mb-6 text-sm text-slate-600">
          Already have an account?{" "}
          <a href="/login" className="font-medium text-primary hover:underline">
            Sign in here
          </a>
        </p>
        <SignUpForm />
      </div>
    </div>
  );
}
