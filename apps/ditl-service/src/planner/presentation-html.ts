import type { DitlPlan } from '@spark/contracts';
import { escapeHtml } from '@spark/writing';
import type { PlannerName } from './planner';

const styles = `
*{box-sizing:border-box}body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#17143d;background:#fff8eb}
main{max-width:760px;margin:0 auto;padding:24px 16px 40px}
header{background:linear-gradient(135deg,#17143d,#3b2ea3);color:#fff;border-radius:20px;padding:28px 24px;margin-bottom:20px}
h1{font-family:Georgia,'Times New Roman',serif;font-size:30px;line-height:1.15;margin:0 0 8px}
header p{margin:0;color:#e0e3ff;line-height:1.5}
.slide{background:#fff;border-radius:18px;padding:20px;margin:0 0 14px;box-shadow:0 1px 2px rgb(23 20 61/.04),0 8px 24px -6px rgb(23 20 61/.1);border-left:6px solid #f97f07}
.time{display:inline-block;font-size:12px;font-weight:700;letter-spacing:.06em;text-transform:uppercase;color:#b73c06;background:#ffecc6;border-radius:999px;padding:4px 10px}
h2{font-size:20px;margin:10px 0 6px}
.slide p{margin:6px 0;line-height:1.55}
.label{font-weight:700;color:#4835c9}
.rhythm{display:grid;gap:12px;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));margin:20px 0}
.rhythm div{background:#eef0ff;border-radius:16px;padding:16px;line-height:1.5}
.rhythm h3{margin:0 0 6px;font-size:15px;color:#302a75}
.closing{background:#17143d;color:#fff;border-radius:18px;padding:20px;line-height:1.6}
footer{margin-top:16px;font-size:13px;color:#5c5a7a;text-align:center}
`;

/**
 * The presentation as one self-contained page: inline CSS, no scripts, no external requests, and
 * every text escaped, so it is safe to show in a sandboxed frame or open on its own.
 */
export function renderPresentation(plan: DitlPlan, planner: PlannerName, createdAt: Date): string {
  const slides = plan.slides
    .map(
      (slide, index) => `<section class="slide" aria-label="Slide ${index + 1}">
<span class="time">${escapeHtml(slide.time)}</span>
<h2>${escapeHtml(slide.title)}</h2>
<p>${escapeHtml(slide.narrative)}</p>
<p><span class="label">Habit:</span> ${escapeHtml(slide.habit)}</p>
<p><span class="label">Spark to capture:</span> ${escapeHtml(slide.sparkToCapture)}</p>
</section>`,
    )
    .join('\n');
  const origin =
    planner === 'offline'
      ? 'Prepared by The Spark offline planner from your onboarding answers. Your coach will refine it with you.'
      : 'Prepared for you by The Spark AI coach from your onboarding answers. Your coach will refine it with you.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(plan.title)}</title><style>${styles}</style></head>
<body><main>
<header><h1>${escapeHtml(plan.title)}</h1><p>${escapeHtml(plan.subtitle)}</p></header>
${slides}
<section class="rhythm" aria-label="Your weekly rhythm">
<div><h3>Sunday alignment</h3>${escapeHtml(plan.weeklyRhythm.sundayAlignment)}</div>
<div><h3>Friday check-in</h3>${escapeHtml(plan.weeklyRhythm.fridayCheckIn)}</div>
<div><h3>Rest and recovery</h3>${escapeHtml(plan.weeklyRhythm.rest)}</div>
</section>
<section class="closing">${escapeHtml(plan.closing)}</section>
<footer>${escapeHtml(origin)} · ${escapeHtml(createdAt.toISOString().slice(0, 10))}</footer>
</main></body></html>`;
}
