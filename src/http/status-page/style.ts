// Inline CSS: the page works offline and behind strict networks, so it loads nothing from anywhere.
export const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#667085;--bg:#f6f7f9;--card:#fff;--line:#e3e6ea;--ok:#1a7f37;--bad:#b42318;--bad-bg:#fdecea;--warn:#9a6700;--warn-bg:#fff8e1;--link:#0b5cad}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--muted:#98a2b3;--bg:#0f1115;--card:#181b21;--line:#2b3038;--ok:#4ac26b;--bad:#ff7b72;--bad-bg:#3a1d1d;--warn:#e3b341;--warn-bg:#2f2a14;--link:#6cb6ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:64rem;margin:0 auto;padding:1rem}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25rem 1rem;margin-bottom:.75rem}
h1{font-size:1.5rem;margin:0}
h2{font-size:1.15rem;margin:0 0 .6rem}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.9rem 1rem;margin:0 0 1rem}
a{color:var(--link);word-break:break-all}
.muted{color:var(--muted)}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.banner.ready{border-left:6px solid var(--ok)}
.banner.unready{border-left:6px solid var(--bad)}
.banner h2{margin:0}
.banner.ready h2{color:var(--ok)}
.banner.unready h2{color:var(--bad)}
.banner ul{margin:.5rem 0 0;padding-left:1.2rem}
li.warning{color:var(--warn)}
.problems{border-left:6px solid var(--bad)}
.problems li{margin:.2rem 0}
dl{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dt{color:var(--muted)}
dd{margin:0;min-width:0}
dd dl{padding-left:.5rem;border-left:2px solid var(--line)}
dt.error,dd.error,td.error,.problems b{color:var(--bad)}
dd.error,td.error{background:var(--bad-bg)}
dd.error{border-radius:4px;padding:0 .3rem}
ul{margin:0;padding-left:1.2rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600}
code{font:.88em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.feeds{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:1rem}
.feed{border:1px solid var(--line);border-radius:8px;padding:.75rem;text-align:center}
.feed h3{margin:0 0 .5rem;font-size:1rem}
.qr svg{width:11rem;height:11rem;background:#fff;border-radius:6px}
.feed .subscribe{display:inline-block;margin:.4rem 0;padding:.35rem .8rem;border-radius:6px;background:var(--link);color:#fff;text-decoration:none;word-break:normal}
.feed p{margin:.3rem 0;font-size:.85rem}
@media (max-width:32rem){dl{grid-template-columns:1fr}dt{margin-top:.3rem}main{padding:.5rem}}
`;
