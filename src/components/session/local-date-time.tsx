import { formatDate, formatDateTime, formatDateTimeUtc, formatDateUtc, parseDate } from "@/lib/dates";
import { useHydrated } from "@/lib/use-hydrated";

/**
 * A date and time in the viewer's time zone on a page the server rendered with data. The
 * server cannot know the viewer's zone, so the HTML and the first render in the browser
 * (hydration must match) show UTC; right after hydration it switches to local time.
 * `dateOnly`: "Jan 02, 2026" without the time.
 */
export function LocalDateTime({
  value,
  className,
  testId,
  dateOnly = false,
}: {
  value: string;
  className?: string;
  testId?: string;
  dateOnly?: boolean;
}) {
  const hydrated = useHydrated();
  const date = parseDate(value);
  const text = dateOnly
    ? hydrated
      ? formatDate(value)
      : formatDateUtc(value)
    : hydrated
      ? formatDateTime(value)
      : formatDateTimeUtc(value);
  return (
    <time dateTime={date?.toISOString()} className={className} data-testid={testId}>
      {text}
    </time>
  );
}
