// Small hand-drawn SVG line charts for values sampled over time while the
// page is open (latency percentiles, lag).
import { h, s } from "./dom.js";

const W = 340;
const H = 130;
const PAD = { left: 44, right: 8, top: 8, bottom: 20 };

function niceMax(value) {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

function formatValue(value, unit) {
  if (value === null || value === undefined) return "—";
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded}${unit ? ` ${unit}` : ""}`;
}

/**
 * `series`: [{name, cls, points: [{t, v}]}] where v may be null (a gap).
 * Returns a <figure> with the chart, a caption and a legend of latest values.
 */
export function lineChart({ title, series, unit = "", windowMs = 10_000 }) {
  const all = series.flatMap((line) => line.points);
  const values = all.map((p) => p.v).filter((v) => typeof v === "number");
  const tMax = all.length ? Math.max(...all.map((p) => p.t)) : Date.now();
  const tMin = Math.min(tMax - windowMs, ...all.map((p) => p.t));
  const yMax = niceMax(values.length ? Math.max(...values) : 0);
  const x = (t) => PAD.left + ((t - tMin) / Math.max(1, tMax - tMin)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom);

  const latest = series.map((line) => {
    const last = [...line.points].reverse().find((p) => typeof p.v === "number");
    return `${line.name} ${formatValue(last?.v, unit)}`;
  });
  const svg = s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": `${title}: ${latest.join(", ")}` },
    [0, 0.5, 1].map((f) => {
      const gy = y(yMax * f);
      return [
        s("line", { x1: PAD.left, x2: W - PAD.right, y1: gy, y2: gy, class: "grid" }),
        s("text", { x: PAD.left - 6, y: gy + 4, class: "axis", "text-anchor": "end" }, formatValue(yMax * f)),
      ];
    }),
    s("text", { x: PAD.left, y: H - 4, class: "axis" }, `${Math.round((tMax - tMin) / 1000)} s ago`),
    s("text", { x: W - PAD.right, y: H - 4, class: "axis", "text-anchor": "end" }, "now"),
    series.map((line) => {
      // One polyline per run of consecutive numeric points.
      const runs = [[]];
      for (const p of line.points) {
        if (typeof p.v === "number") runs.at(-1).push(`${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`);
        else if (runs.at(-1).length) runs.push([]);
      }
      return runs
        .filter((run) => run.length)
        .map((run) =>
          run.length === 1
            ? s("circle", { cx: run[0].split(",")[0], cy: run[0].split(",")[1], r: 2.5, class: `line ${line.cls}` })
            : s("polyline", { points: run.join(" "), class: `line ${line.cls}` }),
        );
    }),
  );
  return h(
    "figure",
    { class: "chart-figure" },
    h("figcaption", null, title),
    svg,
    h(
      "ul",
      { class: "legend" },
      series.map((line, i) => h("li", null, h("span", { class: `swatch ${line.cls}`, "aria-hidden": "true" }), latest[i])),
    ),
  );
}
