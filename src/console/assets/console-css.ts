/** The console's one stylesheet, compiled into the executable (served at /app/assets/console.css). System fonts only. */
export const CONSOLE_CSS = `
:root { --fg:#1b1f24; --muted:#59636e; --line:#d0d7de; --bg:#fff; --accent:#0b5cad; --bad:#b3261e; --warn:#8a5a00; --ok:#1a7f37; --hl:#fff4c2; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
a { color:var(--accent); }
:focus-visible { outline:3px solid #1f6feb; outline-offset:2px; }
.skip { position:absolute; left:-999px; } .skip:focus { left:8px; top:8px; background:#fff; padding:4px 8px; z-index:10; }
header.top { display:flex; gap:16px; align-items:center; padding:8px 20px; border-bottom:1px solid var(--line); background:#f6f8fa; }
header.top .brand { font-weight:700; margin-right:12px; }
header.top nav a { margin-right:12px; }
header.top .who { margin-left:auto; color:var(--muted); display:flex; gap:8px; align-items:center; }
main { padding:16px 20px; max-width:1280px; }
h1 { font-size:22px; margin:4px 0 12px; } h2 { font-size:17px; margin:20px 0 8px; }
form.filters { display:flex; flex-wrap:wrap; gap:10px 14px; align-items:flex-end; padding:10px; border:1px solid var(--line); border-radius:6px; background:#f6f8fa; }
form.filters label, .field label { display:flex; flex-direction:column; font-size:13px; color:var(--muted); gap:2px; }
input, select, textarea, button { font:inherit; }
input, select, textarea { padding:4px 6px; border:1px solid #8c959f; border-radius:4px; }
button, .button { padding:5px 12px; border:1px solid #8c959f; border-radius:4px; background:#fff; cursor:pointer; color:var(--fg); text-decoration:none; display:inline-block; }
button.primary { background:var(--accent); border-color:var(--accent); color:#fff; }
table { border-collapse:collapse; width:100%; margin-top:12px; }
th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:13px; color:var(--muted); }
td.num { text-align:right; font-variant-numeric:tabular-nums; }
.badge { display:inline-block; padding:0 7px; border-radius:10px; font-size:12px; border:1px solid currentColor; white-space:nowrap; }
.badge.alert { color:var(--bad); } .badge.reviewed { color:var(--ok); } .badge.working { color:var(--warn); } .badge.failed { color:var(--bad); }
.pager { display:flex; gap:12px; align-items:center; margin-top:10px; }
.layout { display:grid; grid-template-columns: minmax(0,3fr) minmax(0,2fr); gap:24px; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } }
audio { width:100%; }
ol.transcript { list-style:none; padding:0; margin:0; max-height:520px; overflow:auto; border:1px solid var(--line); border-radius:6px; }
ol.transcript li { border-bottom:1px solid #eaeef2; }
ol.transcript li button { display:grid; grid-template-columns:52px 84px 1fr; gap:8px; width:100%; text-align:left; border:0; border-radius:0; background:none; padding:6px 8px; }
ol.transcript li.hit button { background:var(--hl); }
ol.transcript li.alert button { background:#fde7e4; }
ol.transcript li.playing button { outline:2px solid var(--accent); outline-offset:-2px; }
.t { color:var(--muted); font-variant-numeric:tabular-nums; } .spk { font-weight:600; }
.tag { font-size:11px; color:var(--bad); display:block; }
.alerts li { margin-bottom:12px; padding:8px; border:1px solid var(--line); border-radius:6px; list-style:none; }
.alerts { padding:0; }
.alerts form { display:flex; gap:8px; flex-wrap:wrap; align-items:flex-end; margin-top:6px; }
.decision.confirmed { color:var(--bad); font-weight:600; } .decision.dismissed { color:var(--muted); font-weight:600; }
.login { max-width:360px; margin:60px auto; padding:20px; border:1px solid var(--line); border-radius:8px; }
.login .field { margin-bottom:12px; } .login input { width:100%; }
.error { color:var(--bad); } .notice { color:var(--ok); }
.charts { display:flex; flex-wrap:wrap; gap:24px; }
figure { margin:0; } figcaption { font-size:13px; color:var(--muted); }
dl.kv { display:grid; grid-template-columns:max-content 1fr; gap:2px 12px; } dl.kv dt { color:var(--muted); }
`;
