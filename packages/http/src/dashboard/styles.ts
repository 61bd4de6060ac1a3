/**
 * The dashboard's stylesheet, served as a static asset. Colours meet WCAG AA contrast (4.5:1 for
 * text), focus is always visible, and the layout works from 320px wide up: tables scroll sideways,
 * side-by-side panels stack.
 */
export const styles = `
:root {
  --text: #1b1f24; --muted: #4f5964; --background: #ffffff; --surface: #f4f6f8; --border: #c9d1d9;
  --accent: #0b5cad; --accent-text: #ffffff; --danger: #b42318; --ok: #1a7f37; --warning: #8a5a00;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5;
  color: var(--text); background: var(--background);
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible,
textarea:focus-visible, [tabindex]:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
.skip-link { position: absolute; left: -9999px; top: 0; background: var(--text); color: #fff; padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: .5rem; top: .5rem; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1.25rem;
  background: var(--text); color: #fff; }
header.top a { color: #fff; }
.brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; }
header nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header nav a { text-decoration: none; padding: .25rem 0; border-bottom: 2px solid transparent; }
header nav a[aria-current="page"], header nav a:hover { border-bottom-color: #fff; }
.sign-out { margin-left: auto; display: flex; align-items: center; gap: .75rem; }
.who { color: #d8dee4; font-size: .9rem; }
header button.link-button { background: none; border: 1px solid #d8dee4; color: #fff; border-radius: 4px; padding: .2rem .6rem; cursor: pointer; font: inherit; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
.muted { color: var(--muted); }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 1rem; margin: 1rem 0; }
form.stack { display: grid; gap: .75rem; max-width: 36rem; }
form.inline { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; }
label { font-weight: 600; display: block; }
.field { display: grid; gap: .25rem; }
.hint { font-size: .875rem; color: var(--muted); font-weight: 400; }
input[type=text], input[type=url], input[type=number], input[type=password], select, textarea {
  font: inherit; padding: .45rem .6rem; border: 1px solid #6e7781; border-radius: 4px; width: 100%; min-width: 0; background: #fff; color: var(--text); }
fieldset { border: 1px solid var(--border); border-radius: 6px; padding: .5rem .75rem; }
fieldset label { display: inline-flex; gap: .35rem; align-items: center; font-weight: 400; margin-right: 1rem; }
.button, button[type=submit] { font: inherit; font-weight: 600; background: var(--accent); color: var(--accent-text); border: 1px solid var(--accent);
  border-radius: 4px; padding: .45rem .9rem; cursor: pointer; text-decoration: none; display: inline-block; }
.button.secondary { background: #fff; color: var(--accent); }
.button.danger, button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
.notice { border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; border: 1px solid; }
.notice-ok { border-color: var(--ok); background: #eaf6ec; }
.notice-error { border-color: var(--danger); background: #fdecea; }
.notice-warning { border-color: var(--warning); background: #fff6e0; }
.secret-once { border: 2px solid var(--warning); background: #fff6e0; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
.secret-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
code.secret { font-size: 1rem; background: #fff; border: 1px solid var(--border); padding: .35rem .5rem; border-radius: 4px; word-break: break-all; }
.table-scroll { overflow-x: auto; max-width: 100%; position: relative; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
th { background: var(--surface); font-weight: 600; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
.status { font-weight: 600; }
.status-completed { color: var(--ok); }
.status-failed, .status-revoked { color: var(--danger); }
.status-cancelled { color: var(--muted); }
.status-scraping, .status-active { color: var(--accent); }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; margin: 1rem 0; }
.stat { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: .75rem 1rem; }
.stat .value { font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.stat .label { color: var(--muted); font-size: .9rem; }
progress { width: 100%; height: 1.1rem; }
figure.chart { margin: 0 0 1rem; }
.chart svg { width: 100%; height: auto; max-height: 12rem; }
.chart .bar { fill: var(--accent); }
.chart .axis { stroke: var(--border); }
.chart text { fill: var(--muted); font-size: 10px; }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); gap: 1rem; }
.panel { border: 1px solid var(--border); border-radius: 8px; padding: .75rem 1rem; min-width: 0; overflow: hidden; }
.panel h2, .panel h3 { margin-top: .25rem; }
td form.inline input { width: 8rem; }
td code, td time { white-space: nowrap; }
.card > h2:first-child, .card > h3:first-child { margin-top: 0; }
pre { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: .75rem; overflow: auto; max-height: 28rem; font-size: .85rem; }
pre.wrap { white-space: pre-wrap; word-break: break-word; }
.rendered { overflow-wrap: anywhere; }
.rendered img { max-width: 100%; }
.rendered table { font-size: .9rem; }
.screenshot img { max-width: 100%; border: 1px solid var(--border); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
dl.meta { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: .25rem 1rem; margin: 0; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
.pager { display: flex; gap: 1rem; margin: 1rem 0; }
@media (max-width: 40rem) {
  header.top { padding: .6rem .75rem; }
  .sign-out { margin-left: 0; width: 100%; justify-content: space-between; }
  main { padding: .75rem .75rem 2rem; }
  h1 { font-size: 1.35rem; }
  dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: .5rem; }
  /* A stacked table: each row a card of label/value lines, so it fits a phone without scrolling. */
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { display: block; border: 1px solid var(--border); border-radius: 8px; margin-bottom: .6rem; padding: .25rem 0; }
  table.stack td { display: flex; gap: .75rem; justify-content: space-between; border-bottom: 0; padding: .25rem .75rem; text-align: right; }
  table.stack td::before { content: attr(data-label); font-weight: 600; text-align: left; flex: none; }
  table.stack td.url { overflow-wrap: anywhere; min-width: 0; }
}
`;
