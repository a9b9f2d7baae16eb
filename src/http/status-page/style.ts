// Inline CSS: the page works offline and behind strict networks, so it loads nothing from anywhere.
// Phone first: one column, tables turn into labelled cards under 40rem.
export const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#667085;--bg:#f6f7f9;--card:#fff;--line:#e3e6ea;--ok:#1a7f37;--ok-bg:#e9f7ee;--bad:#b42318;--bad-bg:#fdecea;--warn:#9a6700;--warn-bg:#fff8e1;--link:#0b5cad;--in:#6d28d9;--in-bg:#f1ebfd;--out-bg:#e8f1fb}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#98a2b3;--bg:#0f1115;--card:#181b21;--line:#2b3038;--ok:#4ac26b;--ok-bg:#16261b;--bad:#ff7b72;--bad-bg:#3a1d1d;--warn:#e3b341;--warn-bg:#2f2a14;--link:#6cb6ff;--in:#c4a7ff;--in-bg:#261d3a;--out-bg:#16233a}}
*{box-sizing:border-box}
body{hyphens:manual;overflow-wrap:break-word;margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:64rem;margin:0 auto;padding:1rem}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem 1rem;margin-bottom:.75rem}
header .link{margin-left:auto;font-weight:600;word-break:normal}
h1{font-size:1.5rem;margin:0}
h2{font-size:1.15rem;margin:0 0 .6rem}
h3{font-size:1rem;margin:1rem 0 .4rem}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.9rem 1rem;margin:0 0 1rem;min-width:0}
a{color:var(--link);overflow-wrap:anywhere}
p{margin:.3rem 0}
.muted{color:var(--muted)}
.text{white-space:pre-wrap}
code{font:.88em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.health{border-left:6px solid var(--ok)}
.health.ok h2{color:var(--ok)}
.health.bad{border-left-color:var(--bad)}
.health.bad h2{color:var(--bad)}
.problems{margin:.6rem 0 0;padding-left:1.3rem}
.problems li{margin:.5rem 0}
.problems .what{font-weight:600}
.problems .todo{margin:.15rem 0}
.problems .detail{color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.activity{list-style:none;margin:0;padding:0}
.activity li{display:grid;grid-template-columns:5.2rem 11rem minmax(0,1fr);gap:.2rem .6rem;padding:.35rem 0;border-bottom:1px solid var(--line);align-items:baseline}
.activity li:last-child{border-bottom:0}
.activity time{color:var(--muted);font-variant-numeric:tabular-nums;white-space:nowrap}
.badge{justify-self:start;font-size:.78rem;font-weight:600;padding:.05rem .45rem;border-radius:999px;background:var(--out-bg);color:var(--link);white-space:nowrap}
.dir-google-to-booking .badge,.dir-caldav-to-booking .badge,.dir-microsoft-to-booking .badge{background:var(--in-bg);color:var(--in)}
.dir-reverted .badge{background:var(--warn-bg);color:var(--warn)}
.dir-refused .badge{background:var(--bad-bg);color:var(--bad)}
.why{display:block;color:var(--muted);font-size:.9rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600}
.agenda .time{white-space:nowrap;font-variant-numeric:tabular-nums}
.agenda th:first-child{width:8rem}
table.events{table-layout:fixed}
table.events th:nth-child(3){width:38%}
.agenda .sub{display:block;color:var(--muted);font-size:.85rem}
.agenda tr.cancelled td:nth-child(2) b{text-decoration:line-through}
.shown.ok{color:var(--ok)}
.shown.differs,.shown.failed{color:var(--bad);font-weight:600}
.shown.waiting,.shown.none{color:var(--muted)}
.scroll{overflow-x:auto}
.scroll td{overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dt{color:var(--muted)}
dd{margin:0;min-width:0}
dd dl{padding-left:.5rem;border-left:2px solid var(--line)}
dt.error,dd.error,td.error,#errors b{color:var(--bad)}
dd.error,td.error{background:var(--bad-bg)}
dd.error{border-radius:4px;padding:0 .3rem}
ul{margin:0;padding-left:1.2rem}
details{border-top:1px solid var(--line);padding:.45rem 0}
details>summary{cursor:pointer;font-weight:600}
details[open]>summary{margin-bottom:.5rem}
.feeds{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem}
.feed{border:1px solid var(--line);border-radius:8px;padding:.75rem;text-align:center}
.feed h3{margin:0 0 .5rem;font-size:1rem}
.qr svg{width:11rem;height:11rem;background:#fff;border-radius:6px}
.feed .subscribe{display:inline-block;margin:.4rem 0;padding:.35rem .8rem;border-radius:6px;background:var(--link);color:#fff;text-decoration:none;word-break:normal}
.feed p{margin:.3rem 0;font-size:.85rem}
@media (max-width:40rem){
main{padding:.5rem}
section{padding:.75rem}
header .link{margin-left:0}
.activity li{grid-template-columns:auto 1fr}
.activity .what{grid-column:1/-1}
table.agenda thead{display:none}
table.agenda,table.agenda tbody,table.agenda tr,table.agenda td{display:block;width:100%}
table.agenda tr{border:1px solid var(--line);border-radius:8px;margin:.5rem 0;padding:.3rem .5rem}
table.agenda td{border:0;padding:.15rem 0;display:flex;gap:.75rem;justify-content:space-between}
table.agenda td::before{content:attr(data-label);color:var(--muted);flex:none}
table.agenda td:nth-child(2){display:block}
table.agenda td:nth-child(2)::before{content:none}
.scroll table thead{display:none}
.scroll table,.scroll tbody,.scroll tr,.scroll td{display:block;width:100%}
.scroll tr{border:1px solid var(--line);border-radius:8px;margin:.5rem 0;padding:.3rem .5rem}
.scroll td{border:0;padding:.15rem 0}
.scroll td::before{content:attr(data-label);display:block;color:var(--muted);font-size:.85rem}
dl{grid-template-columns:1fr}
dt{margin-top:.3rem}
}
`;
