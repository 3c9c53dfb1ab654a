import { useState } from "react";
import { AuthGate } from "@/components/session/auth-gate";
import { onboardingSteps } from "@/features/onboarding/steps";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/cn";
import { safeNext } from "@/lib/safe-next";
import { updateOwnUser } from "@/stores/auth";

/**
 * /onboarding: the tour. Finishing or skipping stores onboarding_completed(_at) on the
 * server and goes to /dashboard (spec 2.12, section 8), or to the page a sign-in was
 * headed for (`?next=`, when safe), also when saving fails.
 */
interface TourProps {
  siteName: string;
  /** The welcome credit as worded on the public pages ("$5"), or null when it is off. */
  welcomeCredit: string | null;
}

export function OnboardingTour(props: TourProps) {
  return <AuthGate>{() => <Tour {...props} />}</AuthGate>;
}

function Tour({ siteName, welcomeCredit }: TourProps) {
  const steps = onboardingSteps(siteName, welcomeCredit);
  const [index, setIndex] = useState(0);
  const [finishing, setFinishing] = useState(false);
  const step = steps[index] ?? steps[0]!;
  const last = index === steps.length - 1;
  const Icon = step.icon;

  const finish = async () => {
    setFinishing(true);
    try {
      await updateOwnUser({ onboarding_completed: true, onboarding_completed_at: new Date().toISOString() });
    } catch (err) {
      console.error("[onboarding] could not save completion:", err);
    }
    window.location.replace(safeNext(new URLSearchParams(window.location.search).get("next")));
  };

  return (
    <div className="mx-auto max-w-2xl">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <div className="mb-6 flex items-center justify-between text-sm text-slate-500">
          <span aria-live="polite">
            Step {index + 1} of {steps.length}
          </span>
          <button type="button" className="font-medium text-slate-600 hover:text-slate-900" onClick={finish} disabled={finishing}>
            Skip Tour
          </button>
        </div>
        <div
          className="mb-8 h-2 w-full overflow-hidden rounded-full bg-slate-100"
          role="progressbar"
          aria-label="Tour progress"
          aria-valuemin={1}
          aria-valuemax={steps.length}
          aria-valuenow={index + 1}
        >
          <div className="h-full rounded-full bg-primary transition-all" style={{ width: `${((index + 1) / steps.length) * 100}%` }} />
        </div>
        <div className="min-h-56 space-y-4 text-slate-700">
          <div className="flex items-center gap-3">
            <span className="rounded-full bg-primary/10 p-3 text-primary">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <h1 className="text-2xl font-bold text-slate-900">{step.title}</h1>
          </div>
          {step.body}
        </div>
        <div className="mt-8 flex items-center justify-between gap-4">
          <Button variant="secondary" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0 || finishing}>
            Previous
          </Button>
          <div className="flex gap-2" aria-hidden="true">
            {steps.map((s, i) => (
              <span
                key={s.id}
                className={cn("size-2 rounded-full", i === index ? "bg-primary" : i < index ? "bg-primary/40" : "bg-slate-200")}
              />
            ))}
          </div>
          {last ? (
            <Button onClick={finish} disabled={finishing}>
              Get Started
            </Button>
          ) : (
            <Button onClick={() => setIndex((i) => Math.min(steps.length - 1, i + 1))}>Next</Button>
          )}
        </div>
      </div>
    </div>
  );
}
