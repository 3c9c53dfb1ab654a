import { formatDateTime, formatDateTimeUtc, parseDate } from "@/lib/dates";
import { useHydrated } from "@/lib/use-hydrated";

/**
 * A date and time in the viewer's time zone on a page the server rendered with data. The
 * server cannot know the viewer's zone, so the HTML and the first render in the browser
 * (hydration must match) show UTC; right after hydration it switches to local time.
 */
export function LocalDateTime({ value, className, testId }: { value: string; className?: string; testId?: string }) {
  const hydrated = useHydrated();
  const date = parseDate(value);
  return (
    <time dateTime={date?.toISOString()} className={className} data-testid={testId}>
      {hydrated ? formatDateTime(value) : formatDateTimeUtc(value)}
    </time>
  );
}
