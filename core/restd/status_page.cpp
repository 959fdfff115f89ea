// status_page.cpp - the status page's HTML, style and script (no libraries: the chart is SVG).
#include "restd/status_page.hpp"

namespace drover::restd {

const char *status_page_html() {
    return R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Drover status</title>
<style>
body{font-family:sans-serif;margin:1em;color:#222}
h2{margin:.8em 0 .3em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}
#nodes{display:flex;flex-wrap:wrap;gap:4px}.node{width:110px;padding:4px;border-radius:4px;font-size:12px}
.IDLE{background:#b6e3b6}.ALLOCATED,.MIXED{background:#f7d774}.DOWN{background:#e88}
.DRAIN,.DRAINING,.DRAINED{background:#c9a0dc}.FUTURE,.UNKNOWN{background:#ddd}
#login{display:none}#error{color:#b00}
</style></head><body>
<h1>Drover status</h1>
<div id="login">Token (<code>scontrol token</code>): <input id="token" size="60">
<button id="use">Use</button></div><div id="error"></div>
<div id="overview">
<h2>Partitions</h2><table id="partitions"></table>
<h2>Nodes</h2><div id="nodes"></div>
<h2>Queue</h2>
<p>User <input id="f-user" size="8"> State <input id="f-state" size="8">
Partition <input id="f-part" size="8"></p><table id="queue"></table>
<h2>Jobs ended in the last hour</h2><svg id="chart" width="480" height="120"></svg>
</div>
<div id="job" hidden><p><a href="#">back</a></p><table id="job-fields"></table>
<h2>Steps</h2><table id="steps"></table></div>
<script>
const V = 'v0.0.42';
let token = sessionStorage.getItem('drover-token') || '';
const $ = id => document.getElementById(id);
const esc = s => String(s ?? '').replace(/[&<>"]/g, c => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
function showLogin(why) { $('login').style.display = 'block'; $('error').textContent = why || ''; }
$('use').onclick = () => { token = $('token').value.trim(); sessionStorage.setItem('drover-token', token);
  $('login').style.display = 'none'; refresh(); };
async function api(path) {
  const r = await fetch(path, {headers: {'X-SLURM-USER-TOKEN': token}});
  if (r.status === 401) { showLogin('The token was refused (401).'); throw new Error('401'); }
  return r.json();
}
function rows(table, head, items) {
  table.innerHTML = '<tr>' + head.map(h => '<th>' + esc(h) + '</th>').join('') + '</tr>' +
    items.map(r => '<tr>' + r.map(c => '<td>' + c + '</td>').join('') + '</tr>').join('');
}
async function overview() {
  const [p, n, q, db] = await Promise.all([api(`/slurm/${V}/partitions`), api(`/slurm/${V}/nodes`),
    api(`/slurm/${V}/jobs`), api(`/slurmdb/${V}/jobs`)]);
  rows($('partitions'), ['Partition', 'State', 'Nodes', 'CPUs'], p.partitions.map(x =>
    [esc(x.name), esc(x.partition.state.join(',')), esc(x.nodes.configured), esc(x.cpus.total)]));
  $('nodes').innerHTML = n.nodes.map(x => `<div class="node ${esc(x.state.join(' '))}" id="node-${esc(x.name)}"
    title="${esc(x.reason)}"><b>${esc(x.name)}</b><br>${esc(x.state.join('+'))}` +
    (x.reason ? `<br><i class="reason">${esc(x.reason)}</i>` : '') + '</div>').join('');
  const fu = $('f-user').value, fs = $('f-state').value.toUpperCase(), fp = $('f-part').value;
  const jobs = q.jobs.filter(j => (!fu || j.user_name === fu) && (!fs || j.job_state.includes(fs)) &&
    (!fp || j.partition === fp));
  rows($('queue'), ['JobID', 'Name', 'User', 'State', 'Partition', 'Nodes'], jobs.map(j =>
    [`<a href="#job=${j.job_id}" id="job-${j.job_id}">${j.job_id}</a>`, esc(j.name), esc(j.user_name),
     `<span class="state">${esc(j.job_state.join(','))}</span>`, esc(j.partition), esc(j.nodes)]));
  chart(db.jobs);
}
function chart(jobs) {
  const now = Date.now() / 1000, bins = new Array(12).fill(0);
  for (const j of jobs) { const end = j.time.end; if (end && now - end < 3600) bins[11 - Math.floor((now - end) / 300)]++; }
  const max = Math.max(1, ...bins);
  $('chart').innerHTML = bins.map((b, i) => `<rect x="${i * 40 + 2}" y="${110 - b * 100 / max}" width="36"
    height="${b * 100 / max}" fill="#4a7"><title>${b} jobs</title></rect>`).join('') +
    '<line x1="0" y1="110" x2="480" y2="110" stroke="#333"/>';
  $('chart').dataset.ended = bins.reduce((a, b) => a + b, 0);
}
async function job(id) {
  const [q, db] = await Promise.all([api(`/slurm/${V}/job/${id}`).catch(() => ({jobs: []})),
    api(`/slurmdb/${V}/job/${id}`).catch(() => ({jobs: []}))]);
  const j = q.jobs[0], a = db.jobs[0];
  const state = j ? j.job_state.join(',') : a ? a.state.current.join(',') : 'unknown';
  rows($('job-fields'), ['Field', 'Value'], [['JobID', esc(id)], ['Name', esc((j || a || {}).name)],
    ['State', `<span id="job-state">${esc(state)}</span>`], ['Nodes', esc((j || a || {}).nodes)]]);
  rows($('steps'), ['Step', 'Name', 'State', 'Nodes'], ((a || {}).steps || []).map(s =>
    [esc(s.step.id), esc(s.step.name), esc(s.state.join(',')), esc(s.nodes.range)]));
}
async function refresh() {
  if (!token) return showLogin();
  const m = location.hash.match(/^#job=(\d+)/);
  $('overview').hidden = !!m; $('job').hidden = !m;
  try { if (m) await job(m[1]); else await overview(); $('error').textContent = ''; }
  catch (e) { if (e.message !== '401') $('error').textContent = String(e); }
}
window.onhashchange = refresh;
refresh();
setInterval(refresh, 2000);
</script></body></html>
)html";
}

} // namespace drover::restd
