/** The page's style: system fonts, AA contrast, a visible focus ring, no external asset. */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --ok: #0b6b2e; --bad: #a4161a; --wait: #7a4d00; --focus: #0b57d0; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f6f4; }
header { background: #ffcc00; padding: 12px 20px; display: flex; flex-wrap: wrap; gap: 4px 20px; align-items: baseline; }
header h1 { margin: 0; font-size: 1.4rem; }
header p { margin: 0; }
main { padding: 8px 20px 32px; max-width: 1200px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 16px 12px; margin: 14px 0; }
h2 { font-size: 1.1rem; margin: 10px 0; }
.columns { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 0 14px; }
.empty { color: var(--muted); margin: 4px 0; }
.batch h3 { font-size: 1rem; margin: 10px 0 2px; }
.batch .counts { margin: 0 0 4px; font-variant-numeric: tabular-nums; }
.payer { margin: 10px 0; }
.payer h3 { font-size: 1rem; margin: 6px 0; }
.mandate { border-top: 1px solid var(--line); padding: 6px 0 8px; }
.mandate h4 { margin: 4px 0; font-size: 0.95rem; }
.mandate .mandate-status { margin: 0 0 4px; }
.mandate .terms { margin-bottom: 6px; }
.mandate caption { text-align: left; font-weight: 600; padding: 4px 0; }
.mandate .actions { display: flex; gap: 10px; margin: 6px 0; }
.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }
.card { border: 2px solid var(--wait); border-radius: 10px; padding: 10px 12px; }
.card .amount { font-size: 1.5rem; font-weight: 700; margin: 2px 0; }
.card .kind { font-weight: 600; }
.card code, td code { word-break: break-all; font-size: 0.85rem; }
.card .actions { display: flex; gap: 10px; margin-top: 8px; }
button { font: inherit; border-radius: 6px; border: 1px solid var(--ink); background: #fff; color: var(--ink); padding: 5px 12px; cursor: pointer; }
button.approve { background: var(--ok); border-color: var(--ok); color: #fff; font-weight: 600; }
button.decline { background: var(--bad); border-color: var(--bad); color: #fff; font-weight: 600; }
button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
.scroll { overflow-x: auto; }
.status { font-weight: 700; }
.status-SUCCESSFUL, .status-APPROVED, .http-ok { color: var(--ok); }
.status-FAILED, .status-DENIED, .status-EXPIRED, .status-DECLINED, .status-CANCELLED, .http-bad { color: var(--bad); }
.status-PENDING, .status-CREATED { color: var(--wait); }
pre { margin: 4px 0 0; font-size: 0.8rem; white-space: pre-wrap; word-break: break-all; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; font-variant-numeric: tabular-nums; }
.plain { list-style: none; padding: 0; margin: 0; }
.plain li { padding: 4px 0; border-bottom: 1px solid var(--line); display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin-top: 10px; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; }
label { display: flex; flex-direction: column; font-size: 0.9rem; gap: 2px; }
input, select { font: inherit; padding: 3px 6px; border: 1px solid var(--muted); border-radius: 4px; }
.error { color: var(--bad); min-height: 1em; margin: 4px 0 0; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
