// /console/pricing (admin spec "Pricing Management"): a grid of plan cards, Add Plan, edit
// and delete per card. Saved plans reach the public pages by themselves (public_content).
import { useStore } from "@nanostores/react";
import { Pencil, Plus, Star, Tags, Trash2 } from "lucide-react";
import { useState } from "react";
import { AdminGate } from "@/components/session/admin-gate";
import { Alert, LoadError } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { plural } from "@/lib/plural";
import { PageHeader } from "@/components/ui/page-header";
import { PlanForm } from "@/features/console-pricing/components/plan-form";
import { $plans, loadPlans, removePlan } from "@/features/console-pricing/stores";
import { PROXY_TYPE_LABELS } from "@/lib/catalog";
import { errorMessage } from "@/lib/api-error";
import { formatCents } from "@/lib/money";
import type { ConsolePlan } from "@/features/console-pricing/api";

export function PricingConsole() {
  return <AdminGate>{() => <Pricing />}</AdminGate>;
}

type Editing = { plan: ConsolePlan | null } | null;

function Pricing() {
  const state = useStore($plans);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ConsolePlan | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [banner, setBanner] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleteBusy(true);
    try {
      await removePlan(deleting.id);
      setBanner({ tone: "success", text: "Pricing plan deleted successfully" });
      setDeleting(null);
    } catch (err) {
      setBanner({ tone: "error", text: errorMessage(err) });
      setDeleting(null);
    } finally {
      setDeleteBusy(false);
    }
  };

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader title="Pricing Management" description="Plans and prices per proxy. Active plans appear on the public pricing page.">
        <Button
          onClick={() => {
            setBanner(null);
            setEditing({ plan: null });
          }}
        >
          <Plus className="size-4" aria-hidden="true" />
          Add Plan
        </Button>
      </PageHeader>
      <div aria-live="polite">{banner ? <Alert tone={banner.tone}>{banner.text}</Alert> : null}</div>
      {state.error ? <LoadError message={state.error} onRetry={() => void loadPlans()} /> : null}
      {state.status === "loading" ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
          <span className="sr-only">Loading plans...</span>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-64 w-full rounded-xl" />
          ))}
        </div>
      ) : state.status === "ready" && state.plans.length === 0 ? (
        <EmptyState icon={Tags} title="No pricing plans yet" text="Add a plan to show it on the public pricing page." />
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-label="Pricing plans">
          {state.plans.map((plan) => (
            <li
              key={plan.id}
              className="flex min-w-0 flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
              data-testid="plan-card"
            >
              <div className="flex items-start justify-between gap-2">
                <h2 className="min-w-0 text-lg font-semibold break-words text-slate-900">{plan.name}</h2>
                <div className="flex shrink-0 flex-wrap justify-end gap-1">
                  {plan.popular ? (
                    <Badge tone="info">
                      <Star className="mr-1 size-3" aria-hidden="true" />
                      Popular
                    </Badge>
                  ) : null}
                  <Badge tone={plan.active ? "success" : "neutral"}>{plan.active ? "Active" : "Inactive"}</Badge>
                </div>
              </div>
              <p className="mt-1 text-sm text-slate-600">{PROXY_TYPE_LABELS[plan.type]}</p>
              <p className="mt-3 text-2xl font-bold text-slate-900">
                {formatCents(plan.price_cents)}
                <span className="text-sm font-normal text-slate-600"> per proxy</span>
              </p>
              <p className="mt-1 text-sm text-slate-600" data-testid="plan-limits">
                {plan.bandwidth_quota_gb ? `${plan.bandwidth_quota_gb.toLocaleString("en-US")} GB a month` : "Unlimited bandwidth"}
                {" · "}
                {plan.max_connections
                  ? `up to ${plural(plan.max_connections, "connection", "connections")} at once`
                  : "unlimited connections"}
              </p>
              <ul className="mt-3 flex-1 list-disc space-y-1 pl-5 text-sm text-slate-700" aria-label={`${plan.name} features`}>
                {plan.features.map((feature, i) => (
                  <li key={`${i}-${feature}`} className="break-words">
                    {feature}
                  </li>
                ))}
              </ul>
              <div className="mt-4 flex gap-2 border-t border-slate-100 pt-4">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => {
                    setBanner(null);
                    setEditing({ plan });
                  }}
                  aria-label={`Edit ${plan.name}`}
                >
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit
                </Button>
                <Button
                  variant="secondary"
                  size="sm"
                  className="text-red-700"
                  onClick={() => {
                    setBanner(null);
                    setDeleting(plan);
                  }}
                  aria-label={`Delete ${plan.name}`}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.plan ? "Edit Pricing Plan" : "Add Pricing Plan"}
        className="max-w-lg"
      >
        {editing ? <PlanForm key={editing.plan?.id ?? "new"} plan={editing.plan} onClose={() => setEditing(null)} /> : null}
      </Dialog>

      <Dialog open={deleting !== null} onClose={() => (deleteBusy ? undefined : setDeleting(null))} title="Delete pricing plan">
        <p className="text-sm text-slate-700">Are you sure you want to delete this pricing plan?</p>
        {deleting ? <p className="mt-1 text-sm font-medium break-words text-slate-900">{deleting.name}</p> : null}
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)} disabled={deleteBusy}>
            Cancel
          </Button>
          <Button variant="danger" pending={deleteBusy} pendingText="Deleting..." onClick={() => void confirmDelete()}>
            Delete
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
