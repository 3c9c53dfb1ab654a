// One value per UTC day drawn with uPlot: responsive (follows its container's width), in
// the brand colour, as bars or a line. The canvas is a picture for sighted users: the
// caller gives it a text summary and a data table.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { dayToSeconds, shortDay } from "@/features/console-analytics/format";

interface DayChartProps {
  dates: string[];
  values: number[];
  /** The y axis' tick labels ("$12", "3"). */
  formatValue: (value: number) => string;
  kind: "bars" | "line";
  /** Series name, for uPlot. */
  label: string;
  testId?: string;
}

const HEIGHT = 220;

function brandColour(): string {
  const style = getComputedStyle(document.documentElement);
  return (style.getPropertyValue("--brand-strong") || style.getPropertyValue("--brand")).trim() || "#3b82f6";
}

export function DayChart({ dates, values, formatValue, kind, label, testId }: DayChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const colour = brandColour();
    const axisStroke = "#475569";
    const grid = { stroke: "#e2e8f0", width: 1 };
    const maxValue = Math.max(0, ...values);
    const bars = uPlot.paths.bars;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      // The days are UTC days: label them so, whatever the viewer's time zone.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      scales: {
        x: { time: true },
        // Never a flat line on the top edge: at least 0..1, zero at the bottom.
        y: { range: (_u, _min, max) => [0, Math.max(1, max > 0 ? max * 1.1 : 1)] },
      },
      axes: [
        {
          stroke: axisStroke,
          grid,
          ticks: grid,
          values: (_u, ticks) => ticks.map((t) => shortDay(new Date(t * 1000).toISOString().slice(0, 10))),
        },
        {
          stroke: axisStroke,
          grid,
          ticks: grid,
          size: 56,
          values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) || maxValue > 10 ? formatValue(t) : "")),
        },
      ],
      series: [
        {},
        kind === "bars"
          ? {
              label,
              stroke: colour,
              fill: `${colour}cc`,
              width: 0,
              ...(bars ? { paths: bars({ size: [0.7, 40], align: 0 }) } : {}),
              points: { show: false },
            }
          : { label, stroke: colour, fill: `${colour}22`, width: 2, points: { show: dates.length <= 31, size: 5 } },
      ],
    };
    const chart = new uPlot(opts, [dates.map(dayToSeconds), values], el);
    const observer = new ResizeObserver(() => {
      const width = Math.max(200, el.clientWidth);
      if (width !== chart.width) chart.setSize({ width, height: HEIGHT });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [dates, values, formatValue, kind, label]);

  return <div ref={box} className="w-full min-w-0 overflow-hidden" aria-hidden="true" data-testid={testId} />;
}
