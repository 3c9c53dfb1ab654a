import { Eye } from "lucide-react";
import { Card } from "@/components/ui/card";
import { colorInputValue } from "@/features/console-settings/schemas";
import { accessibleBrand } from "@/lib/site";

interface SettingsPreviewProps {
  siteName: string;
  description: string;
  color: string;
}

/**
 * The site name, primary colour and description as the public pages will show them,
 * updated while the admin types. Text and buttons use the colour's accessible shade,
 * like the site itself (src/lib/site.ts brandStyle).
 */
export function SettingsPreview({ siteName, description, color }: SettingsPreviewProps) {
  const hex = colorInputValue(color);
  const strong = accessibleBrand(hex ?? "#3B82F6");
  return (
    <Card aria-labelledby="settings-preview-title" className="space-y-4">
      <h2 id="settings-preview-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Eye className="size-5" aria-hidden="true" /> Preview
      </h2>
      <div className="overflow-hidden rounded-lg border border-slate-200" data-testid="settings-preview">
        <div className="h-2" style={{ backgroundColor: hex ?? "#cbd5e1" }} aria-hidden="true" />
        <div className="space-y-3 p-4">
          <p className="text-lg font-bold break-words" style={{ color: strong }} data-testid="preview-site-name">
            {siteName.trim() || "Your site name"}
          </p>
          <p className="text-sm break-words text-slate-600" data-testid="preview-description">
            {description.trim() || "Your site description"}
          </p>
          <span className="inline-flex h-9 items-center rounded-md px-4 text-sm font-medium text-white" style={{ backgroundColor: strong }}>
            Get Started
          </span>
        </div>
      </div>
      <p className="flex items-center gap-2 text-sm text-slate-600">
        <span
          className="inline-block size-5 rounded border border-slate-300"
          style={{ backgroundColor: hex ?? "transparent" }}
          aria-hidden="true"
        />
        Primary color:{" "}
        <span className="font-mono text-slate-900" data-testid="preview-color">
          {hex ? hex.toUpperCase() : "not a valid color"}
        </span>
      </p>
    </Card>
  );
}
